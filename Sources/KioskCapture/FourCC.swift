/// A V4L2 pixel format code: four ASCII characters packed little-endian (`v4l2_fourcc(a, b, c, d)`).
struct FourCC: Hashable, Sendable, CustomStringConvertible {
    var rawValue: UInt32

    init(rawValue: UInt32) { self.rawValue = rawValue }

    /// `FourCC("YUYV")`; the string must be exactly four ASCII characters.
    init(_ name: StaticString) {
        precondition(name.utf8CodeUnitCount == 4, "a fourcc has four characters")
        let p = name.utf8Start
        rawValue = UInt32(p[0]) | UInt32(p[1]) << 8 | UInt32(p[2]) << 16 | UInt32(p[3]) << 24
    }

    /// `FourCC(name: "YUYV")`; nil unless `name` is one to four ASCII characters (shorter ones are padded with
    /// spaces, as in "Y16 ").
    init?(name: String) {
        let bytes = Array(name.utf8)
        guard (1...4).contains(bytes.count), bytes.allSatisfy({ (0x20...0x7e).contains($0) }) else { return nil }
        let padded = bytes + [UInt8](repeating: 0x20, count: 4 - bytes.count)
        rawValue = padded.enumerated().reduce(0) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
    }

    /// The four characters, as `v4l2-ctl --list-formats` prints them ("GREY", "YU12", "RGB3", "MJPG").
    /// Trailing spaces are kept (`"Y16 "`); unprintable bytes become `.`.
    var description: String {
        let bytes = (0..<4).map { UInt8(truncatingIfNeeded: rawValue >> ($0 * 8)) }
        return String(decoding: bytes.map { (0x20...0x7e).contains($0) ? $0 : UInt8(ascii: ".") }, as: UTF8.self)
    }

    static let grey = FourCC("GREY")  // V4L2_PIX_FMT_GREY: 8-bit luma
    static let yuyv = FourCC("YUYV")  // V4L2_PIX_FMT_YUYV: Y0 U Y1 V
    static let uyvy = FourCC("UYVY")  // V4L2_PIX_FMT_UYVY: U Y0 V Y1
    static let yuv420 = FourCC("YU12")  // V4L2_PIX_FMT_YUV420: Y plane, then U, then V
    static let yvu420 = FourCC("YV12")  // V4L2_PIX_FMT_YVU420: Y plane, then V, then U
    static let nv12 = FourCC("NV12")  // V4L2_PIX_FMT_NV12: Y plane, then interleaved UV
    static let nv21 = FourCC("NV21")  // V4L2_PIX_FMT_NV21: Y plane, then interleaved VU
    static let rgb24 = FourCC("RGB3")  // V4L2_PIX_FMT_RGB24: R G B
    static let bgr24 = FourCC("BGR3")  // V4L2_PIX_FMT_BGR24: B G R
    static let mjpeg = FourCC("MJPG")  // V4L2_PIX_FMT_MJPEG (only through libv4l2's conversion)
}
