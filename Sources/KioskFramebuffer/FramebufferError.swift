/// Why the framebuffer, or the fonts drawn on it, could not be used. Each case names what failed
/// (the device or font file, and the system or FreeType call), so a log line tells the operator what to fix.
public struct FramebufferError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Reason: Equatable, Sendable {
        /// A system call (`open`, `ioctl`, `mmap`, `write`...) failed; `call` names it (for an ioctl, the
        /// request, such as `FBIOGET_VSCREENINFO`) and `errno` says why.
        case system(call: String, errno: Int32)
        /// The device reports a pixel format this display cannot draw (palette modes, FOURCC, 8 bpp...).
        case unsupportedPixelFormat(String)
        /// A font file is missing; `package` is the Debian package that provides it.
        case fontMissing(package: String)
        /// FreeType refused the call; carries FreeType's error code.
        case freeType(call: String, code: Int32)
    }

    /// The device path (`/dev/fb0`) or the font file.
    public var path: String
    public var reason: Reason

    public init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    public var description: String {
        switch reason {
        case .system(let call, let errno):
            return "\(call) on \(path) failed: \(Self.errnoText(errno)) (errno \(errno))"
        case .unsupportedPixelFormat(let what):
            return "\(path): unsupported pixel format: \(what)"
        case .fontMissing(let package):
            return "font file \(path) not found: install the Debian package \(package) (apt-get install \(package))"
        case .freeType(let call, let code):
            return
                "\(call) on \(path) failed: FreeType error \(code)\(Self.freeTypeText(code).map { " (\($0))" } ?? "")"
        }
    }
}
