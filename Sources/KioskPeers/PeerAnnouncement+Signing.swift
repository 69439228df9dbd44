import BoundedNumbers
import Crypto
import Foundation
import KioskCore

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

    /// An announcement read from a datagram and checked: the credential (trusted key, this event, valid now), the
    /// signature by the credential's key, and a send time within 5 minutes of this door's clock.
    init(
        datagram bytes: [UInt8], tenant: UInt32, event: UInt32, now: Date, verifier: some PassSignatureVerifier
    ) throws(PeerError) {
        let operation = "reading a door's announcement"
        guard bytes.count <= Self.maximumDatagram, bytes.count > 2 else {
            throw PeerError(operation: operation, detail: "\(bytes.count) bytes")
        }
        let length = Int(bytes[0]) << 8 | Int(bytes[1])
        guard bytes.count > 2 + length else { throw PeerError(operation: operation, detail: "truncated") }
        let body = bytes[2..<(2 + length)]
        let signature = bytes[(2 + length)...]
        let announcement: PeerAnnouncement
        do {
            announcement = try JSONDecoder().decode(PeerAnnouncement.self, from: Data(body))
        } catch {
            throw PeerError(operation: operation, detail: "not an announcement: \(error)")
        }
        if let refusal = announcement.credential.check(
            tenant: tenant, event: event, now: Int64(now.timeIntervalSince1970), verifier: verifier)
        {
            throw PeerError(operation: operation, detail: refusal.description)
        }
        guard let key = try? P256.Signing.PublicKey(x963Representation: announcement.credential.peerKey),
            let parsed = try? P256.Signing.ECDSASignature(derRepresentation: signature),
            key.isValidSignature(parsed, for: body)
        else {
            throw PeerError(operation: operation, detail: "its signature does not verify")
        }
        // `abs(sentAt - now)` trapped on a sentAt of -2^63: a signed datagram killed the doors that heard it.
        guard ClockDistance.isWithin(300_000, of: Int64(now.timeIntervalSince1970 * 1000), time: announcement.sentAt),
            (1...65535).contains(announcement.port)
        else {
            throw PeerError(operation: operation, detail: "sent too long ago, or a port out of range")
        }
        self = announcement
    }
}
