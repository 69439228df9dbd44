import BoundedNumbers
import Foundation
import KioskCore
import SignedRecords

/// What two linked doors say to each other, one JSON message per length-prefixed frame.
enum PeerMessage: Codable, Equatable, Sendable {
    /// The first message each side sends: what it holds, its clock (milliseconds since 1970), and whether it takes
    /// other doors' items passed on (signed by their authors; nil from a door of an earlier version, which drops
    /// them, so it is sent only its own door's items).
    case hello(vector: PeerVector, sentAt: Int64, passesOn: Bool?)
    /// Items the other side may not hold: the catch-up after `hello`, then each new one as it is made or learned.
    case items([PeerItem])
    /// Guest rows of the server's deltas (cancellations, walk-ins, edits), each signed by the server: the catch-up
    /// after `hello`, then each new one a door fetched or was passed. Passed on between doors (a door cannot forge
    /// or alter one).
    case guests([GuestNotice])
    /// The server's signed revocations of devices, passed on like the guest rows.
    case revocations([DeviceRevocation])

    /// The largest frame a door accepts (a catch-up is sent in chunks well below it).
    static let maximumFrame = 1 << 20
    /// Items per catch-up frame.
    static let itemsPerFrame = 200
    /// Guest rows or revocations per frame (a row is at most some 7 KB of JSON: 100 stay well below a frame).
    static let noticesPerFrame = 100

    /// The kinds of message this version knows (the JSON object's one key).
    static let knownKinds: Set<String> = ["hello", "items", "guests", "revocations"]

    /// The message in a frame's bytes; nil for a message of a kind a later version of the kiosk added (one JSON
    /// object with one key this version does not know), which is skipped so that doors of two versions stay linked.
    static func decoded(_ data: Data) throws(PeerError) -> PeerMessage? {
        let message: PeerMessage
        do {
            message = try JSONDecoder().decode(PeerMessage.self, from: data)
        } catch {
            if let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any], object.count == 1,
                let kind = object.keys.first, !knownKinds.contains(kind)
            {
                return nil
            }
            throw PeerError(operation: "reading a door's message", detail: "not a message of this protocol: \(error)")
        }
        // The hello's clock is subtracted from this door's: parsed into 1970...9999 first (a hello of -2^63 trapped
        // there, and one message of a door of the event killed every door it reached).
        if case .hello(_, let sentAt, _) = message, !ClockDistance.milliseconds.contains(sentAt) {
            throw PeerError(
                operation: "reading a door's message",
                detail: "a hello whose clock (\(sentAt) ms since 1970) is not between 1970 and 9999")
        }
        return message
    }
}

/// A door's announcement on the multicast group: its credential, the port it accepts links on, the addresses it
/// sends from, when it was sent, and a signature with its peer key over all of that, so nobody can announce a
/// door's credential at another port or replay it from another address (a door dials only an announcement whose
/// source is one of its addresses). The datagram is the body's length (2 bytes, big-endian), the body (JSON), and
/// the signature (DER).
struct PeerAnnouncement: Codable, Equatable, Sendable {
    var credential: PeerCredential
    var port: Int
    var sentAt: Int64
    /// The door's IPv4 addresses; nil from a door of an earlier version, which is dialled at the datagram's source
    /// (that version's announcements can be replayed from elsewhere for their 5 minutes).
    var addresses: [String]?

    init(credential: PeerCredential, port: Int, sentAt: Int64, addresses: [String]? = nil) {
        self.credential = credential
        self.port = port
        self.sentAt = sentAt
        self.addresses = addresses
    }

    static let maximumDatagram = 4096
    /// The most addresses an announcement names.
    static let maximumAddresses = 16
}
