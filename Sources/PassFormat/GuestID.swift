/// A guest's random identity: 80 random bits, never sequential, so passes cannot be enumerated.
///
/// Its text form is 16 base32 characters; staff may type it (or a unique prefix of it) as the
/// confirmation code, with or without dashes.
public struct GuestID: Hashable, Sendable, Comparable, CustomStringConvertible {
    public static let byteCount = 10
    public let bytes: [UInt8]

    public init?(bytes: [UInt8]) {
        guard bytes.count == Self.byteCount else { return nil }
        self.bytes = bytes
    }

    public init?(text: String) {
        guard let bytes = Base32.decode(GuestID.normalizedCode(text).utf8) else { return nil }
        self.init(bytes: bytes)
    }

    public static func random<G: RandomNumberGenerator>(using generator: inout G) -> GuestID {
        GuestID(bytes: (0..<byteCount).map { _ in UInt8.random(in: 0...255, using: &generator) })!
    }

    public static func random() -> GuestID {
        var g = SystemRandomNumberGenerator()
        return random(using: &g)
    }

    /// The 16-character code stored in the roster and printed for manual entry.
    public var text: String { Base32.encode(bytes) }
    public var description: String { text }

    /// The code grouped for people: `ABCD-EFGH-IJKL-MNOP`.
    public var displayCode: String {
        let t = Array(text)
        return stride(from: 0, to: t.count, by: 4).map { String(t[$0..<min($0 + 4, t.count)]) }.joined(separator: "-")
    }

    /// Upper-cases a typed code and drops the separators people add.
    public static func normalizedCode(_ typed: String) -> String {
        String(typed.uppercased().filter { $0 != "-" && $0 != " " })
    }

    public static func < (a: GuestID, b: GuestID) -> Bool { a.bytes.lexicographicallyPrecedes(b.bytes) }
}
