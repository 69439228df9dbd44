/// A Message-ID (RFC 5322 `msg-id`) without its angle brackets, such as `issue-42-send-pass@checkin.example`.
///
/// The workflow derives it from the step (workflow id and step name), so a message sent again after a lost
/// answer carries the same id and a relay or mailbox that received it twice can tell.
public struct MessageID: Sendable, Hashable, CustomStringConvertible {
    /// `left@right`, without angle brackets.
    public let value: String

    /// Checks `value`: `left@right` in printable ASCII without spaces, angle brackets, quotes or control
    /// characters. Angle brackets around the whole value are accepted and dropped.
    public init(_ value: String) throws(MailError) {
        self.value = try Self.checked(value, field: "Message-ID")
    }

    /// `<local@domain>`: the id of one workflow step, for example `MessageID(local: "issue-42-email", domain:
    /// "checkin.example")`.
    public init(local: String, domain: String) throws(MailError) {
        try self.init(local + "@" + domain)
    }

    /// `<value>`, as it appears in the header.
    public var description: String { "<\(value)>" }

    /// The shared check of Message-ID and Content-ID values.
    static func checked(_ text: String, field: String) throws(MailError) -> String {
        var value = Substring(text)
        if value.hasPrefix("<") && value.hasSuffix(">") && value.count >= 2 {
            value = value.dropFirst().dropLast()
        }
        let bytes = Array(value.utf8)
        let forbidden = Set("<>()[],;:\\\" ".utf8)
        guard bytes.count <= 200, bytes.filter({ $0 == UInt8(ascii: "@") }).count == 1,
            bytes.first != UInt8(ascii: "@"), bytes.last != UInt8(ascii: "@"),
            bytes.allSatisfy({ $0 > 32 && $0 < 127 && !forbidden.contains($0) })
        else {
            if HeaderText.hasControlCharacter(text) { throw .controlCharacter(field: field) }
            throw .invalidIdentifier(field: field, value: text)
        }
        return String(value)
    }
}
