/// The image file formats `ImageFile` reads and writes.
public enum ImageFormat: String, Sendable, CaseIterable {
    case png = "PNG"
    case jpeg = "JPEG"
    /// Binary (raw) PGM, magic `P5`.
    case pgm = "PGM"

    /// The format the bytes start with, judged by magic bytes alone (never by a file name).
    public static func detect(_ bytes: [UInt8]) -> ImageFormat? {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if bytes.count >= 3, bytes[0] == UInt8(ascii: "P"), bytes[1] == UInt8(ascii: "5"),
            PGMHeaderScanner.isWhitespace(bytes[2]) || bytes[2] == UInt8(ascii: "#")
        {
            return .pgm
        }
        return nil
    }

    /// File name extensions a replay folder accepts, lower case.
    public static let fileExtensions: Set<String> = ["png", "jpg", "jpeg", "pgm"]
}
