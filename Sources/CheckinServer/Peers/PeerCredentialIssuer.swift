import CheckinCore
import Crypto
import Cryptography
import Foundation
import PassFormat
import SignedRecords
import WireAPI

/// Issues the peer credentials kiosks of one event present to each other on the venue LAN (docs/SYNC.md,
/// "Between doors"), at enrolment and with every heartbeat: one per event of the device, signed with the
/// tenant's newest pass-signing key, valid for `PeerCredential.validity` (24 hours) from now.
///
/// A revoked device's token is refused, so it can neither heartbeat nor get a new credential; the last one it
/// holds would stand until it lapses, so each heartbeat's answer also carries the signed revocations of the
/// event's devices whose credentials may still be valid (`revocations`), which the doors refuse and pass on. And
/// the rows of a roster delta are signed (`signedRows`), so a door can pass a cancellation or a walk-in on to
/// peers that cannot reach the server.
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

    /// The signed revocations of `events`' devices revoked while a credential of theirs may still be valid (one
    /// issued at their last contact, `PeerCredential.validity` ago or later).
    func revocations(tenant: TenantID, events: [EventID], at now: Date) async throws -> [DeviceRevocationWire] {
        var revoked: [(EventID, Device, Date)] = []
        for event in events {
            for entry in try await repository.devices(event: event) {
                let device = entry.device
                guard device.tenant == tenant, let at = device.revokedAt else { continue }
                let lastContact = max(device.lastSeenAt ?? device.enrolledAt, at)
                guard now.timeIntervalSince(lastContact) <= Double(PeerCredential.validity) + 300 else { continue }
                revoked.append((event, device, at))
            }
        }
        guard !revoked.isEmpty else { return [] }
        let key = try await newestSigningKey(tenant: tenant, at: now)
        let signer = try Ed25519PrivateKey(pem: key.privateKeyPEM, name: "signing key \(key.keyID)")
        return try revoked.map { event, device, at in
            var revocation = DeviceRevocation(
                keyID: key.keyID, tenant: tenant.rawValue, event: event.rawValue, deviceId: device.id,
                revokedAt: Int64(at.timeIntervalSince1970.rounded(.up)))
            revocation.signature = try signer.sign(revocation.signedMessage)
            return DeviceRevocationWire(issued: revocation)
        }
    }

    /// A delta's rows, each with the server's signature of the row as a kiosk keeps it (`GuestNotice`). A row
    /// whose id is not a pass code stays unsigned (kiosks skip it).
    func signedRows(_ records: [GuestRecord], tenant: TenantID, event: EventID, at now: Date) async throws
        -> [GuestRecord]
    {
        guard !records.isEmpty else { return records }
        let key = try await newestSigningKey(tenant: tenant, at: now)
        let signer = try Ed25519PrivateKey(pem: key.privateKeyPEM, name: "signing key \(key.keyID)")
        return try records.map { record in
            guard
                let guest = RosterGuest(
                    serverRow: record.id, tenant: tenant, event: event, name: record.name, email: record.email,
                    partySize: record.partySize, ticketType: record.ticketType, checkInNote: record.checkInNote,
                    arrivalAlert: record.arrivalAlert, cancelled: record.status == .cancelled)
            else { return record }
            let notice = GuestNotice(keyID: key.keyID, guest: guest, version: record.version)
            var signed = record
            signed.signature = Data(try signer.sign(notice.signedMessage)).base64EncodedString()
            signed.signedBy = Int(key.keyID)
            return signed
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
