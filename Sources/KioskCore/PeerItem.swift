/// One door's fact as it travels between doors on the LAN (docs/SYNC.md, "Between doors"): a queue item (a
/// check-in, or a revert of one) under the idempotency key it is uploaded with, (device, queue epoch, sequence).
/// Items never change once made; a kiosk's set of items only grows, and merging two doors' sets is a union by key.
public struct PeerItem: Codable, Hashable, Sendable {
    public enum Kind: String, Codable, Sendable {
        case checkIn = "check_in"
        case revert
    }

    public var device: String
    public var epoch: String
    public var sequence: Int64
    public var event: UInt32
    public var guest: String
    public var kind: Kind
    public var door: String
    /// The scan's time on the device's clock, milliseconds since 1970.
    public var at: Int64
    public var arrived: Int
    /// `CheckInSource`'s raw value (camera, manual, ...).
    public var source: String
    /// A revert: the sequence (same device and epoch) of the check-in it undoes.
    public var reverts: Int64?
    /// The device's clock offset to the server's (server minus device) when the item was sent, if known: the
    /// scan's corrected time is `at + clockOffsetMs`.
    public var clockOffsetMs: Int64?

    public init(
        device: String, epoch: String, sequence: Int64, event: UInt32, guest: String, kind: Kind, door: String,
        at: Int64, arrived: Int, source: String, reverts: Int64? = nil, clockOffsetMs: Int64? = nil
    ) {
        self.device = device
        self.epoch = epoch
        self.sequence = sequence
        self.event = event
        self.guest = guest
        self.kind = kind
        self.door = door
        self.at = at
        self.arrived = arrived
        self.source = source
        self.reverts = reverts
        self.clockOffsetMs = clockOffsetMs
    }

    /// The key of the item's stream in a `PeerVector`.
    public var stream: PeerVector.Stream { PeerVector.Stream(device: device, epoch: epoch) }

    /// The scan's time on the server's clock, as well as this door knows it.
    public var correctedAt: Int64 { at + (clockOffsetMs ?? 0) }

    /// Bounds on what a peer may send: an item outside them is dropped and the link is closed.
    public var isWellFormed: Bool {
        (1...64).contains(device.utf8.count) && (1...64).contains(epoch.utf8.count) && sequence > 0
            && (1...64).contains(guest.utf8.count) && (1...256).contains(door.utf8.count)
            && (1...32).contains(source.utf8.count) && (kind == .revert ? 0...1000 : 1...1000).contains(arrived)
            && (kind == .revert) == (reverts != nil)
    }
}

/// What a door holds of each stream (device and queue epoch): the lowest sequence it holds (`from`), and the
/// highest (`through`) below which it holds every item from `from` on. Two doors swap vectors when they connect,
/// and each sends the other what the other's vector does not cover: above `through`, and below `from` (items
/// relayed ahead of earlier ones, which the door has not seen yet).
public struct PeerVector: Codable, Equatable, Sendable {
    public struct Stream: Hashable, Codable, Sendable, Comparable {
        public var device: String
        public var epoch: String

        public init(device: String, epoch: String) {
            self.device = device
            self.epoch = epoch
        }

        public static func < (a: Stream, b: Stream) -> Bool { (a.device, a.epoch) < (b.device, b.epoch) }
    }

    public struct Entry: Codable, Equatable, Sendable {
        public var stream: Stream
        public var from: Int64
        public var through: Int64

        public init(stream: Stream, from: Int64 = 1, through: Int64) {
            self.stream = stream
            self.from = from
            self.through = through
        }
    }

    public var entries: [Entry]

    public init(_ entries: [Entry] = []) { self.entries = entries }

    /// The highest sequence of `stream` covered, 0 if none.
    public func through(_ stream: Stream) -> Int64 { entries.first { $0.stream == stream }?.through ?? 0 }

    /// The sequences of `stream` covered: from its lowest held through the end of its run without a gap (none for
    /// a stream it does not name).
    public func covered(_ stream: Stream) -> ClosedRange<Int64>? {
        entries.first { $0.stream == stream }.map { $0.from...max($0.from, $0.through) }
    }
}

/// A door seen on the LAN, for `kioskctl status` and the status line.
public struct PeerSighting: Equatable, Sendable {
    public var device: String
    public var door: String
    public var address: String
    /// When it was last heard (an announcement or a message), milliseconds since 1970.
    public var lastHeard: Int64
    /// Whether an authenticated link to it is up.
    public var linked: Bool
    /// Its clock minus this door's (milliseconds), as its hello said when the last link was made; nil before one.
    public var clockSkewMs: Int64?

    public init(
        device: String, door: String, address: String, lastHeard: Int64, linked: Bool, clockSkewMs: Int64? = nil
    ) {
        self.device = device
        self.door = door
        self.address = address
        self.lastHeard = lastHeard
        self.linked = linked
        self.clockSkewMs = clockSkewMs
    }

    /// A skew beyond which the doors' clocks are flagged (as the server flags a kiosk's): two minutes.
    public static let flaggedSkewMs: Int64 = 120_000

    /// "clock 3 min ahead", "clock 40 s behind", or nil when not measured or within `flaggedSkewMs`.
    public var clockWarning: String? { Self.clockWarning(skewMs: clockSkewMs) }

    /// The warning for a door whose clock is `skewMs` ahead of this door's.
    public static func clockWarning(skewMs: Int64?) -> String? {
        guard let skew = skewMs, abs(skew) > flaggedSkewMs else { return nil }
        let seconds = (abs(skew) + 500) / 1000
        let amount =
            seconds >= 3600
            ? "\((seconds + 1800) / 3600) h" : seconds >= 120 ? "\((seconds + 30) / 60) min" : "\(seconds) s"
        return "clock \(amount) \(skew > 0 ? "ahead" : "behind")"
    }
}
