/// The format the camera streams in, as the driver (or libv4l2) finally set it with `VIDIOC_S_FMT`.
public struct CaptureFormat: Sendable, Equatable, CustomStringConvertible {
    /// The pixel format's four characters as `v4l2-ctl --list-formats` prints them: "GREY", "YUYV", "YU12", "RGB3".
    public var fourCC: String { pixelFormat.description }
    public var width: Int
    public var height: Int
    /// Bytes from one row to the next (of the luma plane for planar formats); at least one row's pixels, often more.
    public var bytesPerLine: Int
    /// True when libv4l2 converts in software from what the camera really sends (for example MJPEG to YU12).
    public var isEmulated: Bool

    let pixelFormat: FourCC

    init(pixelFormat: FourCC, width: Int, height: Int, bytesPerLine: Int, isEmulated: Bool) {
        self.pixelFormat = pixelFormat
        self.width = width
        self.height = height
        self.bytesPerLine = bytesPerLine
        self.isEmulated = isEmulated
    }

    public var description: String {
        "\(fourCC) \(width)x\(height) bytesperline=\(bytesPerLine) \(isEmulated ? "emulated by libv4l2" : "native")"
    }
}

/// How luma sits in a buffer of a given pixel format: what conversion to grey costs.
enum LumaLayout: Equatable {
    /// One byte per pixel, rows of `bytesPerLine`: copy rows.
    case grey
    /// Packed 4:2:2, two bytes per pixel: take every second byte starting at `offset` (YUYV 0, UYVY 1).
    case packed422(offset: Int)
    /// A full-resolution luma plane first (YU12, YV12, NV12, NV21): copy its rows.
    case planar
    /// Three bytes per pixel: compute luma from R, G, B at these offsets.
    case rgb(red: Int, blue: Int)

    init?(_ pixelFormat: FourCC) {
        switch pixelFormat {
        case .grey: self = .grey
        case .yuyv: self = .packed422(offset: 0)
        case .uyvy: self = .packed422(offset: 1)
        case .yuv420, .yvu420, .nv12, .nv21: self = .planar
        case .rgb24: self = .rgb(red: 0, blue: 2)
        case .bgr24: self = .rgb(red: 2, blue: 0)
        default: return nil
        }
    }

    /// Bytes a row's pixels occupy (the minimum `bytesperline`).
    func rowBytes(width: Int) -> Int {
        switch self {
        case .grey, .planar: width
        case .packed422: width * 2
        case .rgb: width * 3
        }
    }
}
