/// One message as `Tests/SMTP/relay.py` received it: the envelope, and what Python's `email` package (policy
/// `default`) found in the bytes, independently of the code that wrote them.
public struct ReceivedMail: Decodable, Sendable {
    public struct Envelope: Decodable, Sendable {
        public var mailFrom: String
        public var rcptTos: [String]
        /// Whether the message came over TLS (STARTTLS or implicit).
        public var tls: Bool
        /// The AUTH user name, when the client authenticated.
        public var authenticatedAs: String?
        /// The name the client gave in EHLO (or HELO).
        public var ehlo: String?

        enum CodingKeys: String, CodingKey {
            case mailFrom = "mail_from"
            case rcptTos = "rcpt_tos"
            case tls, ehlo
            case authenticatedAs = "authenticated_as"
        }
    }

    /// A MIME part and its children.
    public struct Part: Decodable, Sendable, Equatable {
        public var type: String
        public var parts: [Part]?

        public init(type: String, parts: [Part]? = nil) {
            self.type = type
            self.parts = parts
        }
    }

    public struct Image: Decodable, Sendable {
        /// With angle brackets, as in the header.
        public var contentID: String?
        public var contentType: String
        public var disposition: String?
        public var filename: String?
        public var file: String
        /// The decoded image bytes.
        public var data: [UInt8] = []

        enum CodingKeys: String, CodingKey {
            case contentID = "content_id"
            case contentType = "content_type"
            case disposition, filename, file
        }
    }

    public var envelope: Envelope
    /// Header values decoded (RFC 2047 words become text).
    public var headers: [String: String]
    public var structure: Part
    /// The text/plain body, decoded, LF line endings.
    public var text: String?
    /// The text/html body, decoded, LF line endings.
    public var html: String?
    public var images: [Image]
    /// The parser's complaints (missing boundaries, bad base64...): none for a well-formed message.
    public var defects: [String]
    /// The bytes as received (after the relay undid SMTP's dot-stuffing).
    public var raw: [UInt8] = []

    enum CodingKeys: String, CodingKey {
        case envelope, headers, structure, text, html, images, defects
    }
}
