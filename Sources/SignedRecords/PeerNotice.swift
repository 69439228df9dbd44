import PassFormat

/// What the server says that a door may pass on to its peers on the venue LAN (docs/SYNC.md, "Between doors"):
/// a guest's roster row as a delta sent it (a cancellation, a walk-in, an edit), or a device's revocation. Each
/// is signed by the server with the tenant's newest pass-signing key under its own domain tag, so a peer, even an
/// enrolled one, can relay it but never make or alter one, and no notice's signature verifies as a pass's or a
/// credential's.
public protocol PeerNotice: Sendable {
    var keyID: KeyID { get }
    var tenant: UInt32 { get }
    var event: UInt32 { get }
    var signature: [UInt8] { get }
    /// The exact message the server signs: a domain tag, then every field.
    var signedMessage: [UInt8] { get }
    /// Bounds of the fields, before the signature is checked: nil when well formed.
    var malformation: String? { get }
}

/// Why a notice from a peer (or the server) is not taken.
public enum PeerNoticeRefusal: Error, Equatable, Sendable, CustomStringConvertible {
    case untrustedKey(KeyID)
    case badSignature
    case otherEvent(tenant: UInt32, event: UInt32)
    case malformed(String)

    public var description: String {
        switch self {
        case .untrustedKey(let id):
            "server notice signed with key \(id), which this kiosk does not trust: add the server's keys to "
                + "kiosk.conf (the trusted_key lines `checkin-server signing-keys --tenant N` prints)"
        case .badSignature: "server notice's signature does not verify (altered or forged by a peer)"
        case .otherEvent(let tenant, let event): "server notice is for tenant \(tenant) event \(event)"
        case .malformed(let why): "server notice is malformed: \(why)"
        }
    }
}

extension PeerNotice {
    /// Checks the notice for `tenant`'s `event` with the verifier of the kiosk's trusted pass keys. Bounds first,
    /// then the key, the signature and the event.
    public func check(tenant: UInt32, event: UInt32, verifier: some PassSignatureVerifier) -> PeerNoticeRefusal? {
        if let malformation { return .malformed(malformation) }
        guard signature.count == 64 else { return .malformed("signature of \(signature.count) bytes") }
        guard verifier.trustsKey(keyID) else { return .untrustedKey(keyID) }
        guard verifier.isValidSignature(signature, of: signedMessage, keyID: keyID) else { return .badSignature }
        guard self.tenant == tenant, self.event == event else {
            return .otherEvent(tenant: self.tenant, event: self.event)
        }
        return nil
    }
}

/// A guest's roster row as the server's delta sent it, in the form the kiosk keeps it (`RosterGuest`), with the
/// row's version: a door that fetched it passes it on, and a peer applies it as the server's row (an older
/// version than the peer holds changes nothing). The guest's check-in is not part of it: check-ins travel as
/// the doors' own items.
public struct GuestNotice: PeerNotice, Hashable, Codable {
    public static let domainTag = Array("qr-checkin-guest".utf8)

    public var keyID: KeyID
    public var tenant: UInt32
    public var event: UInt32
    public var guest: String
    public var name: String
    public var email: String
    public var partySize: Int
    /// `RosterGuest.Status`'s raw value.
    public var status: String
    public var notes: String
    public var version: Int64
    public var signature: [UInt8]

    public init(keyID: KeyID, guest: RosterGuest, version: Int64, signature: [UInt8] = []) {
        self.keyID = keyID
        self.tenant = guest.tenant.rawValue
        self.event = guest.event.rawValue
        self.guest = guest.guest.text
        self.name = guest.name
        self.email = guest.email
        self.partySize = guest.partySize
        self.status = guest.status.rawValue
        self.notes = guest.notes
        self.version = version
        self.signature = signature
    }

    public var signedMessage: [UInt8] {
        var b = Self.domainTag
        b.append(contentsOf: keyID.bigEndianBytes)
        b.append(contentsOf: tenant.bigEndianBytes)
        b.append(contentsOf: event.bigEndianBytes)
        for field in [guest, name, email, status, notes] { b.appendSignedField(field) }
        b.append(contentsOf: UInt16(clamping: partySize).bigEndianBytes)
        b.append(contentsOf: UInt64(bitPattern: version).bigEndianBytes)
        return b
    }

    public var malformation: String? { rosterGuest == nil ? "not a roster row this kiosk can hold" : nil }

    /// The row as the kiosk keeps it; nil when a field is out of the kiosk's bounds.
    public var rosterGuest: RosterGuest? {
        guard let id = GuestID(text: guest), id.text == guest, let status = RosterGuest.Status(rawValue: status),
            RosterGuest.partySizes.contains(partySize), version >= 0,
            name.utf8.count <= 1024, email.utf8.count <= 1024, notes.utf8.count <= 4096
        else { return nil }
        return RosterGuest(
            guest: id, tenant: TenantID(tenant), event: EventID(event), name: name,
            email: email, partySize: partySize, status: status, notes: notes)
    }
}

/// The server's statement that `deviceId` was revoked (at `revokedAt`, seconds since 1970): a peer credential
/// of that device issued no later than that is refused, and a link with it is closed. A device enrolled again
/// later gets credentials issued after it, which stand.
public struct DeviceRevocation: PeerNotice, Hashable, Codable {
    public static let domainTag = Array("qr-checkin-revoked".utf8)

    public var keyID: KeyID
    public var tenant: UInt32
    public var event: UInt32
    public var deviceId: String
    public var revokedAt: Int64
    public var signature: [UInt8]

    public init(
        keyID: KeyID, tenant: UInt32, event: UInt32, deviceId: String, revokedAt: Int64, signature: [UInt8] = []
    ) {
        self.keyID = keyID
        self.tenant = tenant
        self.event = event
        self.deviceId = deviceId
        self.revokedAt = revokedAt
        self.signature = signature
    }

    public var signedMessage: [UInt8] {
        var b = Self.domainTag
        b.append(contentsOf: keyID.bigEndianBytes)
        b.append(contentsOf: tenant.bigEndianBytes)
        b.append(contentsOf: event.bigEndianBytes)
        b.appendSignedField(deviceId)
        b.append(contentsOf: UInt64(bitPattern: revokedAt).bigEndianBytes)
        return b
    }

    public var malformation: String? {
        (1...64).contains(deviceId.utf8.count) ? nil : "device id of \(deviceId.utf8.count) bytes"
    }

    /// Whether it revokes `credential` (the same device, issued no later than the revocation).
    public func revokes(_ credential: PeerCredential) -> Bool {
        credential.deviceId == deviceId && credential.tenant == tenant && credential.event == event
            && credential.notBefore <= revokedAt
    }
}
