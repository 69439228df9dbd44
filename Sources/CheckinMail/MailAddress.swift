/// An e-mail address with an optional display name, as in `"Zoë Martin" <zoe@example.org>`.
///
/// The address itself is ASCII (`local@domain`): the relay is not asked for SMTPUTF8. The display name may be
/// any text; the writer encodes it (RFC 2047) when it is not plain ASCII.
public struct MailAddress: Sendable, Hashable, CustomStringConvertible {
    /// `local@domain`, as it goes into the envelope (`MAIL FROM`, `RCPT TO`) and the header.
    public let address: String
    /// The name shown beside the address, if any.
    public let displayName: String?

    /// Checks `address` (one `@`, non-empty sides, printable ASCII without spaces, brackets, quotes, commas or
    /// semicolons) and `displayName` (no control characters).
    public init(_ address: String, displayName: String? = nil) throws(MailError) {
        guard Self.isValid(address) else { throw .invalidAddress(address) }
        if let displayName, HeaderText.hasControlCharacter(displayName) {
            throw .controlCharacter(field: "display name of \(address)")
        }
        self.address = address
        self.displayName = displayName.flatMap { $0.isEmpty ? nil : $0 }
    }

    public var description: String {
        displayName.map { "\($0) <\(address)>" } ?? address
    }

    static func isValid(_ address: String) -> Bool {
        let bytes = Array(address.utf8)
        guard bytes.count <= 254, let at = bytes.lastIndex(of: UInt8(ascii: "@")) else { return false }
        let local = bytes[..<at]
        let domain = bytes[(at + 1)...]
        guard !local.isEmpty, local.count <= 64, !domain.isEmpty else { return false }
        let forbidden = Set("<>()[],;:\\\" @".utf8)
        guard local.allSatisfy({ $0 > 32 && $0 < 127 && !forbidden.contains($0) }) else { return false }
        // A host name or an address literal is letters, digits, dots and hyphens (IDNs arrive as xn--).
        return domain.allSatisfy { byte in
            (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: ".")
                || byte == UInt8(ascii: "-")
        } && domain.first != UInt8(ascii: ".") && domain.last != UInt8(ascii: ".")
    }
}
