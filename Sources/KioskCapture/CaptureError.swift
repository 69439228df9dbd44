import SystemCalls
import SystemPackage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A camera call that failed: which call (the ioctl's name, or `open`, `mmap`, `poll`), on which device, with
/// which errno, and what the operator should do about it.
///
/// `description` reads like zbar's messages: "/dev/video0: queuing video buffer (VIDIOC_QBUF) failed: No such
/// device (errno 19). Camera disconnected: ...".
public struct CaptureError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The failing call: a V4L2 ioctl ("VIDIOC_DQBUF") or a system call ("open", "mmap", "poll").
    public var call: String
    /// What the kiosk was doing, in words: "dequeuing video buffer".
    public var action: String
    /// The errno the call set; 0 when the call succeeded but returned something unusable (no capture
    /// capability, no usable pixel format).
    public var errno: Int32
    /// The device node, as given in `CameraRequest.devicePath`.
    public var devicePath: String
    /// What went wrong when there is no errno to say it, for example "offers only MJPG".
    public var detail: String?

    public init(call: String, action: String, errno: Int32, devicePath: String, detail: String? = nil) {
        self.call = call
        self.action = action
        self.errno = errno
        self.devicePath = devicePath
        self.detail = detail
    }

    /// The camera went away (unplugged, driver unbound, USB reset) or is not there yet: show "Camera
    /// disconnected", drop this `V4L2Camera` (closing the old file descriptor lets the kernel reuse the device
    /// node) and open the camera again by path every half second or so.
    public var isDisconnect: Bool {
        switch errno {
        case ENODEV, ENXIO, EIO: true
        case ENOENT: call == "open"
        default: false
        }
    }

    /// What the operator should do.
    public var advice: String {
        if isDisconnect {
            return call == "open"
                ? "No camera at this path: plug in the webcam (the kiosk keeps retrying)."
                : "Camera disconnected: check the USB cable; the kiosk reopens it when it comes back."
        }
        switch errno {
        case EACCES, EPERM: return "Permission denied: run the kiosk as a user in the 'video' group."
        case EBUSY:
            return "The camera is in use by another program: stop that program, or unplug and replug the camera."
        case ENOMEM: return "Not enough memory for video buffers: lower the requested resolution."
        case ENOTTY: return "The device does not understand this request: the path is probably not a camera."
        case EINVAL: return "The camera refused this setting: try another resolution, or another camera."
        case 0: return "Choose the webcam's capture node (list them with 'v4l2-ctl --list-devices')."
        default: return "Check the camera and the kernel log (dmesg), then restart the kiosk."
        }
    }

    public var description: String {
        let reason = errno == 0 ? (detail ?? "unusable answer") : "\(Errno.text(errno)) (errno \(errno))"
        let extra = errno != 0 && detail != nil ? " [\(detail!)]" : ""
        return "\(devicePath): \(action) (\(call)) failed: \(reason)\(extra). \(advice)"
    }
}
