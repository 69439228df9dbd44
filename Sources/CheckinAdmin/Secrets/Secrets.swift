import Cryptography
import PassFormat

/// Device tokens, enrolment codes, device ids and queue epochs: random, base32, and stored only as SHA-256.
public enum Secrets {
    /// `count` bytes from the system's secure generator (getrandom on Linux), in base32.
    public static func randomBase32(bytes count: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return Base32.encode((0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    /// A device token: 256 random bits.
    public static func newDeviceToken() -> String { "kt_" + randomBase32(bytes: 32) }

    /// An enrolment code for people to type: 80 random bits as `ABCD-EFGH-IJKL-MNOP`.
    public static func newEnrolmentCode() -> String {
        let text = Array(randomBase32(bytes: 10))
        return stride(from: 0, to: text.count, by: 4).map { String(text[$0..<min($0 + 4, text.count)]) }
            .joined(separator: "-")
    }

    public static func newDeviceId() -> String { "dev_" + randomBase32(bytes: 10).lowercased() }
    public static func newQueueEpoch() -> String { randomBase32(bytes: 10).lowercased() }
    public static func newAdminToken() -> String { "kadm_" + randomBase32(bytes: 32) }

    /// What is stored of a token: its SHA-256 in hex.
    public static func hash(token: String) -> String { SHA256.hexDigest(token) }

    /// What is stored of an enrolment code: the SHA-256 of the code as typed, upper-cased, without dashes
    /// or spaces.
    public static func hash(enrolmentCode: String) -> String {
        SHA256.hexDigest(String(enrolmentCode.uppercased().filter { $0 != "-" && $0 != " " }))
    }
}
