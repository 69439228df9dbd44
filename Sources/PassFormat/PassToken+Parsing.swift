/// Why a scanned code is not a well-formed pass. Recorded in the audit log, never shown at the door.
public enum PassFormatError: Error, Equatable, Sendable, CustomStringConvertible {
    case empty
    case tooLong(bytes: Int)
    case notText
    case noToken
    case badCharacter
    case wrongLength(bytes: Int)
    case unsupportedVersion(UInt8)

    public var description: String {
        switch self {
        case .empty: "empty code"
        case .tooLong(let n): "code of \(n) bytes is too long to be a pass"
        case .notText: "code is not ASCII text"
        case .noToken: "no token after the last '/'"
        case .badCharacter: "token has a character outside base32"
        case .wrongLength(let n):
            "token decodes to \(n) bytes, a pass has \(PassToken.byteLength) (truncated or padded)"
        case .unsupportedVersion(let v): "unsupported pass format version \(v)"
        }
    }
}

extension PassToken {
    /// The longest code worth looking at: a pass URL is under 200 characters.
    public static let maximumPayloadLength = 512

    /// Parses what a QR code holds: a pass URL (`HTTPS://HOST/P/<token>`) or a bare token.
    /// The host is not checked: the signature is what makes a pass genuine.
    public init(payload: some Collection<UInt8>) throws(PassFormatError) {
        guard !payload.isEmpty else { throw .empty }
        guard payload.count <= Self.maximumPayloadLength else { throw .tooLong(bytes: payload.count) }
        guard payload.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { throw .notText }
        var text = Array(payload)
        while let last = text.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "/") { text.removeLast() }
        let token = text.lastIndex(of: UInt8(ascii: "/")).map { Array(text[($0 + 1)...]) } ?? text
        guard !token.isEmpty else { throw .noToken }
        guard let bytes = Base32.decode(token) else { throw .badCharacter }
        try self.init(bytes: bytes)
    }

    /// Parses the 85 binary bytes of a token.
    public init(bytes: [UInt8]) throws(PassFormatError) {
        guard let version = bytes.first else { throw .wrongLength(bytes: 0) }
        guard version == Self.currentVersion else {
            // A future version may be longer; name the version before the length.
            throw bytes.count >= Self.bodyLength ? .unsupportedVersion(version) : .wrongLength(bytes: bytes.count)
        }
        guard bytes.count == Self.byteLength else { throw .wrongLength(bytes: bytes.count) }
        self.init(
            version: version,
            keyID: KeyID(bigEndianBytes: bytes[1..<3]),
            tenant: TenantID(UInt32(bigEndianBytes: bytes[3..<7])),
            event: EventID(UInt32(bigEndianBytes: bytes[7..<11])),
            guest: GuestID(bytes: Array(bytes[11..<21]))!,
            signature: Array(bytes[21..<85])
        )
    }
}
