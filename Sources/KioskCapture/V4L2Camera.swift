internal import CV4L2
import KioskCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A webcam opened through libv4l2, streaming 8-bit grey frames from memory-mapped buffers.
///
/// Owns the file descriptor and the mapped buffers; `deinit` stops the stream (`VIDIOC_STREAMOFF`), unmaps the
/// buffers (`v4l2_munmap`) and closes the device (`v4l2_close`), in that order. Use it from one thread or task:
/// `nextFrame(timeout:)` blocks in `poll`, so run the capture loop on its own thread, not on the cooperative pool.
///
/// When the camera is unplugged, calls throw a `CaptureError` whose `isDisconnect` is true. Drop the camera
/// (so its descriptor closes) and create a new one with the same `CameraRequest` until that succeeds.
public final class V4L2Camera {
    /// What was asked for.
    public let request: CameraRequest
    /// What the driver gave: pixel format, size (may differ from the request) and row stride.
    public let format: CaptureFormat
    /// The driver's name from `VIDIOC_QUERYCAP` ("uvcvideo", "vivid").
    public let driverName: String
    /// The camera's name from `VIDIOC_QUERYCAP` ("HD Pro Webcam C920").
    public let cardName: String
    /// Whether the driver lets us set the frame interval (`V4L2_CAP_TIMEPERFRAME` from `VIDIOC_G_PARM`).
    public internal(set) var supportsFrameRate: Bool
    /// The driver's current frame rate from `VIDIOC_G_PARM`/`VIDIOC_S_PARM`; nil when it does not say.
    public internal(set) var frameRate: Double?
    /// Counters since the camera was opened.
    public internal(set) var statistics = CaptureStatistics()

    let handle: V4L2Handle
    let layout: LumaLayout
    var buffers: [MappedBuffer]
    var isStreaming: Bool

    /// Opens the camera at `request.devicePath`, checks that it can capture and stream, chooses the pixel format
    /// cheapest to turn into grey, sets the size (the driver may choose another; see `format`) and the frame
    /// rate (if requested and supported), maps four buffers and starts streaming.
    ///
    /// The corresponding C calls are `v4l2_open`, then `v4l2_ioctl` with `VIDIOC_QUERYCAP`, `VIDIOC_ENUM_FMT`,
    /// `VIDIOC_S_FMT`, `VIDIOC_G_PARM`/`VIDIOC_S_PARM`, `VIDIOC_REQBUFS`, `VIDIOC_QUERYBUF`, `v4l2_mmap`,
    /// `VIDIOC_QBUF` and `VIDIOC_STREAMON`.
    public init(_ request: CameraRequest) throws(CaptureError) {
        let path = request.devicePath
        guard
            let fd = try systemCall(
                "open", "opening the camera", device: path,
                {
                    CV4L2_open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
                })
        else { throw CaptureError(call: "open", action: "opening the camera", errno: EAGAIN, devicePath: path) }
        let handle = V4L2Handle(fd: fd, path: path)
        var buffers: [MappedBuffer] = []
        let identity: (driver: String, card: String)
        let chosen: (format: CaptureFormat, layout: LumaLayout)
        var rate: FrameRateState
        do throws(CaptureError) {
            identity = try Self.checkCapabilities(handle)
            chosen = try Self.setFormat(
                handle, offered: try Self.offeredFormats(handle), width: request.width, height: request.height,
                only: request.pixelFormats)
            rate = try Self.readFrameRate(handle)
            if let fps = request.framesPerSecond, rate.supported { rate = try Self.writeFrameRate(handle, fps) ?? rate }
            buffers = try Self.mapBuffers(handle, count: Self.bufferCount)
            for index in buffers.indices { try Self.queueBuffer(handle, index: index) }
            try Self.startStreaming(handle)
        } catch {
            // Partly set up (never streaming here): unmap, close, then report the failure.
            Self.unmap(buffers)
            v4l2_close(fd)
            throw error
        }
        self.request = request
        self.handle = handle
        self.driverName = identity.driver
        self.cardName = identity.card
        self.format = chosen.format
        self.layout = chosen.layout
        self.supportsFrameRate = rate.supported
        self.frameRate = rate.framesPerSecond
        self.buffers = buffers
        self.isStreaming = true
    }

    deinit {
        if isStreaming { Self.stopStreamingIgnoringErrors(handle) }
        Self.unmap(buffers)
        // Not retried on EINTR: the descriptor is released either way on Linux.
        v4l2_close(handle.fd)
    }

    /// How many buffers to ask for: one being converted, one being filled, two ready to drop when we fall behind.
    static let bufferCount = 4
}

/// Frame counters of a `V4L2Camera`.
public struct CaptureStatistics: Sendable, Equatable {
    /// Frames returned by `nextFrame(timeout:)`.
    public var framesDelivered = 0
    /// Older ready frames dropped so that the newest one is decoded.
    public var staleFramesDropped = 0
    /// Frames the driver flagged as corrupt (`V4L2_BUF_FLAG_ERROR`) or that were shorter than the format says.
    public var corruptFramesDropped = 0
    /// The driver's sequence number of the last frame delivered (gaps mean frames the driver dropped).
    public var lastSequence: UInt32 = 0
    /// How often the stream was stopped and restarted to change the frame rate.
    public var streamRestarts = 0

    public init() {}
}

/// One buffer mapped with `v4l2_mmap`, owned by `V4L2Camera`.
struct MappedBuffer {
    let start: UnsafeMutableRawPointer
    let length: Int
}
