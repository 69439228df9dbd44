import ImageFiles
import SystemCalls
import SystemPackage

/// Why a replay folder cannot be played.
public enum ReplayError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The folder does not exist (or cannot be opened); carries the `opendir` errno.
    case directoryUnavailable(path: String, errno: Int32)
    /// The folder holds no `.png`, `.jpg`, `.jpeg` or `.pgm` files.
    case noImages(path: String)
    /// The frame rate is not a positive finite number.
    case invalidFrameRate(Double)
    /// An image in the folder cannot be read (or is a FIFO, a directory, too large...); the `ImageError` names
    /// the file. The replay skips it and goes on.
    case unreadableImage(ImageError)

    public var description: String {
        switch self {
        case .directoryUnavailable(let path, let errno):
            return "\(path): cannot open replay folder (opendir): \(Errno.text(errno)) (errno \(errno)). "
                + "Check the folder given to --replay (or 'replay =' in kiosk.conf)"
        case .noImages(let path):
            return "\(path): replay folder holds no .png, .jpg, .jpeg or .pgm images: put the door images in it, "
                + "or give the folder that holds them"
        case .invalidFrameRate(let fps):
            return "replay frame rate \(fps) is not a positive number"
        case .unreadableImage(let error):
            return "replay image skipped: \(error)"
        }
    }

}
