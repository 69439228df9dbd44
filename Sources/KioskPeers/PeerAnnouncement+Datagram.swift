import BoundedNumbers
import Foundation
import KioskCore
import PassFormat

extension PeerAnnouncement {
    /// A datagram read and checked but for its signature by the door's peer key (`init(datagram:...)` checks that
    /// last): its length, the announcement's JSON, its credential (a trusted key, this event, valid now), a send
    /// time within 5 minutes of this door's clock, a port and at most `maximumAddresses` addresses. No number in it
    /// reaches arithmetic unchecked.
    static func read(
        datagram bytes: [UInt8], tenant: UInt32, event: UInt32, now: Date, verifier: some PassSignatureVerifier
    ) throws(PeerError) -> (announcement: PeerAnnouncement, body: ArraySlice<UInt8>, signature: ArraySlice<UInt8>) {
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
        // `abs(sentAt - now)` trapped on a sentAt of -2^63: a signed datagram killed the doors that heard it.
        guard ClockDistance.isWithin(300_000, of: Int64(now.timeIntervalSince1970 * 1000), time: announcement.sentAt),
            (1...65535).contains(announcement.port)
        else {
            throw PeerError(operation: operation, detail: "sent too long ago, or a port out of range")
        }
        if let addresses = announcement.addresses {
            guard addresses.count <= Self.maximumAddresses, addresses.allSatisfy({ $0.utf8.count <= 45 }) else {
                throw PeerError(operation: operation, detail: "\(addresses.count) addresses, or one too long")
            }
        }
        return (announcement, body, signature)
    }
}
