import CheckinAPI
import CheckinCore
import Crypto
import Foundation
import KioskCore
import KioskCrypto
import PassFormat

/// Issues the peer credentials kiosks of one event present to each other on the venue LAN (docs/SYNC.md,
/// "Between doors"), at enrolment and with every heartbeat: one per event of the device, signed with the
/// tenant's newest pass-signing key, valid for `PeerCredential.validity` (24 hours) from now.
///
/// There is no revocation list for credentials: a revoked device's token is refused, so it can neither
/// heartbeat nor get a new credential, and the last one it holds lapses within 24 hours.
struct PeerCredentialIssuer {
    let repository: any CheckinRepository

    /// The peer key a request carries, checked: nil when it has none (an older kiosk, or no LAN sync); a 400
    /// naming `field` unless it is the base64 of an uncompressed P-256 point on the curve (X9.63, 65 bytes, first
    /// byte 4).
    static func peerKey(_ text: String?, field: String = "peerKey") throws -> [UInt8]? {
        guard let text else { return nil }
        guard let data = Data(base64Encoded: text), data.count == 65, data.first == 4,
            (try? P256.Signing.PublicKey(x963Representation: data)) != nil
        else {
            throw APIFailure.badRequest(
                "\(field) must be the base64 of a 65-byte uncompressed P-256 public key (X9.63, first byte 4)",
                hint: "send the public half of the kiosk's peer key pair as made, or leave \(field) out")
        }
        return Array(data)
    }

    /// A credential for each of `events`, for `device` (its id and door) holding `peerKey`, from `now`.
    func issue(device: Device, events: [EventID], peerKey: [UInt8], at now: Date) async throws
        -> [PeerCredentialWire]
    {
        guard !events.isEmpty else { return [] }
        let key = try await newestSigningKey(tenant: device.tenant, at: now)
        let signer = try Ed25519PrivateKey(pem: key.privateKeyPEM, name: "signing key \(key.keyID)")
        let notBefore = Int64(now.timeIntervalSince1970.rounded(.down))
        return try events.map { event in
            var credential = PeerCredential(
                keyID: key.keyID, tenant: device.tenant.rawValue, event: event.rawValue, deviceId: device.id,
                door: device.door, peerKey: peerKey, notBefore: notBefore,
                notAfter: notBefore + PeerCredential.validity)
            credential.signature = try signer.sign(credential.signedMessage)
            return PeerCredentialWire(issued: credential)
        }
    }

    /// The key passes are signed with (PassIssuanceSteps): a tenant without one gets its first. Read first, as
    /// each heartbeat asks: no write and no key pair made while the tenant has one.
    private func newestSigningKey(tenant: TenantID, at now: Date) async throws -> SigningKey {
        if let newest = try await repository.signingKeys(tenant: tenant).first { return newest }
        let candidate = try Ed25519PrivateKey.generate()
        return try await repository.signingKey(
            tenant: tenant,
            orAdd: NewSigningKey(privateKeyPEM: try candidate.pem(), publicKey: candidate.publicKey.raw), at: now)
    }
}
