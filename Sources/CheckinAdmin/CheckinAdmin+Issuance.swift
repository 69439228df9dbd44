import CheckinCore
import CheckinWebhooks
import Cryptography
import Foundation
import PassFormat

extension CheckinAdmin {
    /// The tenant's signing keys, newest first; with `rotate`, a new key first, which signs from now on (the
    /// older ones keep verifying the passes they signed).
    public func signingKeys(tenant: TenantID, rotate: Bool) async throws -> [SigningKey] {
        guard try await repository.tenant(tenant) != nil else { throw Failure.notFound("tenant \(tenant)") }
        let now = clock.now()
        let fresh = try Ed25519PrivateKey.generate()
        let candidate = NewSigningKey(privateKeyPEM: try fresh.pem(), publicKey: try fresh.publicKey.raw)
        if rotate {
            let key = try await repository.addSigningKey(candidate, tenant: tenant, at: now)
            try await audit(tenant, "signing_key_added", "key \(key.keyID)")
        } else {
            _ = try await repository.signingKey(tenant: tenant, orAdd: candidate, at: now)
        }
        return try await repository.signingKeys(tenant: tenant)
    }

    /// The `trusted_key` lines a kiosk of the tenant needs in kiosk.conf, one per key.
    public static func trustedKeyLines(_ keys: [SigningKey]) -> [String] {
        keys.map { "trusted_key = \($0.keyID) ed25519:\(Data($0.publicKey).base64EncodedString())" }
    }

    /// A new webhook secret for the tenant (`whsec_...`); the previous one keeps verifying for a day.
    public func newWebhookSecret(tenant: TenantID) async throws -> String {
        guard try await repository.tenant(tenant) != nil else { throw Failure.notFound("tenant \(tenant)") }
        let secret = WebhookSecretKey.generate()
        try await repository.addWebhookSecret(secret, tenant: tenant, at: clock.now())
        try await audit(tenant, "webhook_secret_created", "a new guest webhook secret")
        return secret
    }
}
