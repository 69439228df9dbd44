import PassFormat

/// Seals the secrets a repository keeps (tenants' private signing keys, webhook secrets) under a key that is not
/// in the database, and opens them again. The repository stores only what `seal` returns, so a copy of the
/// database alone holds no usable secret. `CheckinServer.SecretsKey` implements it (AES-256-GCM).
public protocol SecretSealing: Sendable {
    /// Names the key without revealing it; stored in the database at first start, so a server started with
    /// another key refuses to start instead of failing on the first secret it reads.
    var keyID: String { get }
    /// The text to store for `secret`, bound to `context` (opening it under another context fails).
    func seal(_ secret: String, context: SecretContext) throws(SecretSealingError) -> String
    /// The secret `seal` stored; throws when the text was sealed with another key or context, or changed.
    func open(_ stored: String, context: SecretContext) throws(SecretSealingError) -> String
}

/// What a sealed secret belongs to: sealed under one row's context, it does not open under another's, so a
/// secret copied from one tenant's row to another's is refused.
public struct SecretContext: Equatable, Sendable, CustomStringConvertible {
    public var description: String

    init(_ description: String) { self.description = description }

    public static func signingKey(tenant: TenantID) -> SecretContext {
        SecretContext("signing_key tenant=\(tenant.rawValue)")
    }
    public static func webhookSecret(tenant: TenantID) -> SecretContext {
        SecretContext("webhook_secret tenant=\(tenant.rawValue)")
    }
    public static func offlineAlertSecret(event: EventID) -> SecretContext {
        SecretContext("offline_alert event=\(event.rawValue)")
    }
}

/// The text form of a sealed secret: `sealed1:<key id>:<base64 of the sealed box>`. Anything else in a secret
/// column is a plain secret stored before secrets were sealed (migration 0007/7 seals those).
public enum SealedText {
    public static let prefix = "sealed1:"

    public static func isSealed(_ stored: String) -> Bool { stored.hasPrefix(prefix) }

    /// The key id of a sealed text, nil for plain text.
    public static func keyID(of stored: String) -> String? {
        guard isSealed(stored) else { return nil }
        let parts = stored.dropFirst(prefix.count).split(separator: ":", maxSplits: 1)
        return parts.count == 2 ? String(parts[0]) : nil
    }
}

/// Why a stored secret could not be sealed or opened.
public enum SecretSealingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Sealed with another key than the one the server was started with.
    case wrongKey(sealedWith: String, held: String)
    /// Not a sealed text (a plain secret where a sealed one must be), or not one this server can read.
    case malformed(SecretContext)
    /// The key matches but the box does not open: its bytes or the row it sits in changed.
    case doesNotOpen(SecretContext)
    /// The cryptography itself failed (swift-crypto's reason).
    case crypto(String)

    public var description: String {
        switch self {
        case .wrongKey(let sealed, let held):
            "the database's secrets are sealed with key \(sealed), but this server holds key \(held): start it with "
                + "the secrets key it was first started with (--secrets-key-file or the systemd credential)"
        case .malformed(let context): "the stored \(context) is not a sealed secret this server can read"
        case .doesNotOpen(let context):
            "the stored \(context) does not open with this key: it was changed or moved from another row"
        case .crypto(let reason): "sealing a secret failed: \(reason)"
        }
    }
}
