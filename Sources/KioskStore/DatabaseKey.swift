import Cryptography

/// The 32 random bytes the kiosk database is encrypted under (AES-256-GCM per page, `EncryptingVFS`). At a door
/// it comes from a systemd credential (`LoadCredentialEncrypted=`, sealed to the TPM2 where there is one); on a
/// development machine from a key file outside the database's folder (`database_key_file`, mode 0600). It
/// never lies beside the database in plain text, and it is never written into the database or a message.
public struct DatabaseKey: Sendable {
    /// The name of the systemd credential that holds the key, unless `database_key_credential` names another.
    public static let credentialName = "kiosk-db-key"
    static let byteCount = 32

    let bytes: [UInt8]

    /// A key of exactly 32 bytes.
    public init(bytes: [UInt8]) throws(StoreError) {
        guard bytes.count == Self.byteCount else {
            throw StoreError(
                kind: .keyRefused, resultCode: 0,
                message: "a database key is \(Self.byteCount) random bytes, not \(bytes.count)",
                operation: "reading the database key", path: "")
        }
        self.bytes = bytes
    }

    /// A new random key (the operating system's generator: `getrandom`), for a demo or a test.
    public static func random() -> DatabaseKey {
        var generator = SystemRandomNumberGenerator()
        return try! DatabaseKey(bytes: (0..<byteCount).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    /// The key the pages are sealed under, derived so the stored key serves nothing else directly.
    var pageKey: [UInt8] { HMACSHA256.mac(key: bytes, message: Array("kiosk database pages v1".utf8)) }
}
