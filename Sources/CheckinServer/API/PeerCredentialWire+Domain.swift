import Foundation
import SignedRecords
import WireAPI

// Between the credential the server signs (KioskCore) and its wire form (WireAPI). The kiosk's conversion back
// is KioskSync's own; the label `issued:` keeps the two apart where both modules are imported.

extension PeerCredentialWire {
    init(issued credential: PeerCredential) {
        self.init(
            version: Int(credential.version), keyId: Int(credential.keyID), tenantId: credential.tenant,
            eventId: credential.event, deviceId: credential.deviceId, door: credential.door,
            peerKey: Data(credential.peerKey).base64EncodedString(), notBefore: credential.notBefore,
            notAfter: credential.notAfter, signature: Data(credential.signature).base64EncodedString())
    }
}

extension DeviceRevocationWire {
    init(issued revocation: DeviceRevocation) {
        self.init(
            keyId: Int(revocation.keyID), tenantId: revocation.tenant, eventId: revocation.event,
            deviceId: revocation.deviceId, revokedAt: revocation.revokedAt,
            signature: Data(revocation.signature).base64EncodedString())
    }
}
