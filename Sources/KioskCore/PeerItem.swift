import SignedRecords

/// One door's fact as it travels between doors on the LAN (docs/SYNC.md, "Between doors"): a queue item (a
/// check-in, or a revert of one) under the idempotency key it is uploaded with, (device, queue epoch, sequence).
/// Items never change once made; a kiosk's set of items only grows, and merging two doors' sets is a union by key.
///
/// An item travels with its author's signature (its peer key, under the domain tag `qr-checkin-item`), and, when
/// a door passes on another door's item, with the author's credential: a door can pass on any door's items but
/// not make or alter one. The two are how it travels, not part of the fact: a door keeps the signature of the
/// items it may pass on, and kiosks of an earlier version ignore both.
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
    /// The author's ECDSA P-256 signature of `signedMessage` (raw, 64 bytes), made with the key its credential
    /// names; nil on an item of a kiosk of an earlier version, which is not passed on.
    public var signature: [UInt8]?
    /// The author's credential, sent with an item passed on by another door (the receiver cannot check the
    /// signature without it).
    public var author: PeerCredential?

    public static let domainTag = Array("qr-checkin-item".utf8)

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

    /// The exact message the author signs: the domain tag, then every field of the fact.
    public var signedMessage: [UInt8] {
        var b = Self.domainTag
        for field in [device, epoch] { b.appendSignedField(field) }
        b.append(contentsOf: UInt64(bitPattern: sequence).bigEndianBytes)
        b.append(contentsOf: event.bigEndianBytes)
        for field in [guest, kind.rawValue, door] { b.appendSignedField(field) }
        b.append(contentsOf: UInt64(bitPattern: at).bigEndianBytes)
        b.append(contentsOf: UInt32(clamping: arrived).bigEndianBytes)
        b.appendSignedField(source)
        for optional in [reverts, clockOffsetMs] {
            if let value = optional {
                b.append(1)
                b.append(contentsOf: UInt64(bitPattern: value).bigEndianBytes)
            } else {
                b.append(0)
            }
        }
        return b
    }

    /// The item as its author holds it: without the signature and credential it travels with.
    public var fact: PeerItem {
        var bare = self
        bare.signature = nil
        bare.author = nil
        return bare
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
            && (kind == .revert) == (reverts != nil) && (signature == nil || signature?.count == 64)
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
        // `magnitude`: the skew is read back from the door's database, where `abs` of -2^63 would trap.
        guard let skew = skewMs, skew.magnitude > flaggedSkewMs else { return nil }
        let seconds = skew.magnitude / 1000 + (skew.magnitude % 1000 >= 500 ? 1 : 0)
        let amount =
            seconds >= 3600
            ? "\((seconds + 1800) / 3600) h" : seconds >= 120 ? "\((seconds + 30) / 60) min" : "\(seconds) s"
        return "clock \(amount) \(skew > 0 ? "ahead" : "behind")"
    }
}
