import SystemPackage

/// A system call that failed: its name (`open`, `read`, an ioctl's request such as `VIDIOC_DQBUF`) and the errno
/// it set, as swift-system's `Errno`, whose `description` is `strerror`'s text.
///
/// Each adapter turns this into its own typed error (`CaptureError`, `FramebufferError`, `ImageError`), which adds
/// the device or file and what the operator should do.
public struct SystemCallError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The failing call, as the operator should read it in a log.
    public var call: String
    public var errno: Errno

    public init(call: String, errno: Errno) {
        self.call = call
        self.errno = errno
    }

    /// "open failed: No such file or directory (errno 2)".
    public var description: String { "\(call) failed: \(errno.text) (errno \(errno.rawValue))" }
}

extension Errno {
    /// `strerror`'s text for this errno ("No such file or directory"), without the errno number.
    public var text: String { description }

    /// `strerror`'s text for a raw errno value. The corresponding C function is `strerror`.
    public static func text(_ code: Int32) -> String { Errno(rawValue: code).description }
}
