import BoundedNumbers
import Crypto
import Foundation
import KioskCore
import PassFormat
import SignedRecords
import WireAPI

/// This kiosk's peer key pair for the LAN between doors (docs/SYNC.md, "Between doors"): made here once (P-256),
/// kept in the kiosk's encrypted database; the public half goes to the server at enrolment and with every
/// heartbeat, and the server answers with the credentials peers check.
public enum PeerKeys {
    /// The public key (X9.63, 65 bytes), made and kept on first use.
    public static func publicKey(store: some SyncStore, at now: Date) throws -> [UInt8] {
        if let kept = try store.peerIdentity() { return kept.publicKey }
        let key = P256.Signing.PrivateKey()
        return try store.savePeerIdentity(
            privateKey: Array(key.rawRepresentation), publicKey: Array(key.publicKey.x963Representation), at: now
        ).publicKey
    }

    /// Keeps the credentials of an answer; a malformed one is dropped (the next heartbeat brings another).
    static func keep(_ wires: [PeerCredentialWire]?, store: some SyncStore, at now: Date) throws {
        guard let wires, !wires.isEmpty else { return }
        try store.savePeerCredentials(wires.compactMap(PeerCredential.init(wire:)), at: now)
    }
}

extension PeerKeys {
    /// Keeps the revocations of a heartbeat's answer (the LAN refuses those devices and passes them on); a
    /// malformed one is dropped.
    static func keep(_ wires: [DeviceRevocationWire]?, store: some SyncStore, at now: Date) throws {
        guard let wires, !wires.isEmpty else { return }
        try store.keepRevocations(wires.compactMap(DeviceRevocation.init(wire:)), at: now)
    }
}

extension DeviceRevocation {
    /// The revocation of a server's answer, or nil when a field cannot be one.
    init?(wire: DeviceRevocationWire) {
        guard let keyID = KeyID(exactly: wire.keyId), let signature = Data(base64Encoded: wire.signature) else {
            return nil
        }
        self.init(
            keyID: keyID, tenant: wire.tenantId, event: wire.eventId, deviceId: wire.deviceId,
            revokedAt: wire.revokedAt, signature: Array(signature))
    }
}

extension PeerCredential {
    /// The credential of a server's answer, or nil when a field cannot be one.
    init?(wire: PeerCredentialWire) {
        // The times and lengths a credential can have: the door makes its certificate from them (`notBefore - 300`
        // trapped on a server's answer of -2^63) and announces them in a datagram.
        guard let version = UInt8(exactly: wire.version), let keyID = KeyID(exactly: wire.keyId),
            let key = Data(base64Encoded: wire.peerKey), let signature = Data(base64Encoded: wire.signature),
            ClockDistance.seconds.contains(wire.notBefore), ClockDistance.seconds.contains(wire.notAfter),
            (1...64).contains(wire.deviceId.utf8.count), (1...256).contains(wire.door.utf8.count)
        else { return nil }
        self.init(
            version: version, keyID: keyID, tenant: wire.tenantId, event: wire.eventId, deviceId: wire.deviceId,
            door: wire.door, peerKey: Array(key), notBefore: wire.notBefore, notAfter: wire.notAfter,
            signature: Array(signature))
    }
}
