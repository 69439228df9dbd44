import Crypto
import Foundation
import KioskCore
import PassFormat

extension PeerAnnouncement {
    /// The datagram: body length, body, signature of the body with the door's peer key.
    func datagram(signedWith key: P256.Signing.PrivateKey) throws -> [UInt8] {
        let body = Array(try JSONEncoder().encode(self))
        let signature = Array(try key.signature(for: body).derRepresentation)
        // Within a datagram, so the two-byte length holds it (`UInt8(count >> 8)` trapped past 64 KiB).
        guard 2 + body.count + signature.count <= Self.maximumDatagram else {
            throw PeerError(
                operation: "announcing this door",
                detail: "an announcement of \(body.count) bytes does not fit a datagram")
        }
        return [UInt8(body.count >> 8), UInt8(body.count & 0xff)] + body + signature
    }

    /// An announcement read from a datagram and checked (`read(datagram:...)`), then its signature by the
    /// credential's key.
    init(
        datagram bytes: [UInt8], tenant: UInt32, event: UInt32, now: Date, verifier: some PassSignatureVerifier
    ) throws(PeerError) {
        let (announcement, body, signature) = try Self.read(
            datagram: bytes, tenant: tenant, event: event, now: now, verifier: verifier)
        guard let key = try? P256.Signing.PublicKey(x963Representation: announcement.credential.peerKey),
            let parsed = try? P256.Signing.ECDSASignature(derRepresentation: signature),
            key.isValidSignature(parsed, for: body)
        else {
            throw PeerError(operation: "reading a door's announcement", detail: "its signature does not verify")
        }
        self = announcement
    }
}
