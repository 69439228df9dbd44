/// An image carried inside the message and shown by the HTML part as `<img src="cid:…">`: mail clients that
/// block remote images still show it.
public struct InlineImage: Sendable, Equatable {
    /// The Content-ID without angle brackets (`pass-qr@checkin.example`); the HTML refers to it as
    /// `cid:pass-qr@checkin.example` (see `htmlSource`).
    public let contentID: String
    /// `image/png` unless said otherwise.
    public let mediaType: String
    /// The name a client offers when the image is saved.
    public let fileName: String
    /// The image file's bytes.
    public let data: [UInt8]

    /// Checks the Content-ID (`left@right`, like a Message-ID), the media type and the file name.
    public init(contentID: String, fileName: String, data: [UInt8], mediaType: String = "image/png")
        throws(MailError)
    {
        self.contentID = try MessageID.checked(contentID, field: "Content-ID")
        guard Self.isMediaType(mediaType) else { throw .invalidMediaType(mediaType) }
        let forbidden = Set("\"\\/".utf8)
        guard !fileName.isEmpty, fileName.utf8.count <= 100,
            fileName.utf8.allSatisfy({ $0 >= 32 && $0 < 127 && !forbidden.contains($0) })
        else {
            if HeaderText.hasControlCharacter(fileName) { throw .controlCharacter(field: "file name") }
            throw .invalidFileName(fileName)
        }
        self.mediaType = mediaType
        self.fileName = fileName
        self.data = data
    }

    /// What the HTML part puts in an `img` element's `src` to show this image: `cid:` and the Content-ID.
    public var htmlSource: String { "cid:" + contentID }

    private static func isMediaType(_ text: String) -> Bool {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        return parts.count == 2
            && parts.allSatisfy { part in
                !part.isEmpty
                    && part.utf8.allSatisfy { byte in
                        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || "+-.".utf8.contains(byte)
                    }
            }
    }
}
