import BoundedNumbers
import PassFormat

/// What lets one door trust another on the venue LAN (docs/SYNC.md, "Between doors"): the server's statement that
/// the device `deviceId`, at `door`, is enrolled for `event` of `tenant` and holds the private half of `peerKey`,
/// from `notBefore` to `notAfter`. Signed with the tenant's newest pass-signing key (`keyID`), which every kiosk of
/// the tenant already trusts, under its own domain tag: a credential's signature can never verify as a pass's.
///
/// A kiosk makes its peer key pair itself (P-256; the public key in X9.63 form, 65 bytes) and sends the public
/// half at enrolment and with every heartbeat; the server answers with a credential valid for 24 hours.
public struct PeerCredential: Hashable, Sendable, Codable {
    public static let currentVersion: UInt8 = 1
    /// Prefixed to the body before signing (a pass's tag is `qr-checkin-pass`).
    public static let domainTag = Array("qr-checkin-peer".utf8)
    /// How long a credential is valid from its issue.
    public static let validity: Int64 = 24 * 3600

    public var version: UInt8
    public var keyID: KeyID
    public var tenant: UInt32
    public var event: UInt32
    public var deviceId: String
    public var door: String
    /// The peer's P-256 public key, X9.63 (uncompressed point, 65 bytes).
    public var peerKey: [UInt8]
    /// Seconds since 1970, UTC.
    public var notBefore: Int64
    public var notAfter: Int64
    public var signature: [UInt8]

    public init(
        version: UInt8 = PeerCredential.currentVersion, keyID: KeyID, tenant: UInt32, event: UInt32,
        deviceId: String, door: String, peerKey: [UInt8], notBefore: Int64, notAfter: Int64,
        signature: [UInt8] = []
    ) {
        self.version = version
        self.keyID = keyID
        self.tenant = tenant
        self.event = event
        self.deviceId = deviceId
        self.door = door
        self.peerKey = peerKey
        self.notBefore = notBefore
        self.notAfter = notAfter
        self.signature = signature
    }

    /// The exact message the server signs and a peer verifies: the domain tag, then every field, the strings and
    /// the key each behind a 2-byte length so no two credentials share a message.
    public var signedMessage: [UInt8] {
        var b = Self.domainTag
        b.append(version)
        b.append(contentsOf: keyID.bigEndianBytes)
        b.append(contentsOf: tenant.bigEndianBytes)
        b.append(contentsOf: event.bigEndianBytes)
        for field in [Array(deviceId.utf8), Array(door.utf8), peerKey] {
            b.append(contentsOf: UInt16(clamping: field.count).bigEndianBytes)
            b.append(contentsOf: field)
        }
        b.append(contentsOf: UInt64(bitPattern: notBefore).bigEndianBytes)
        b.append(contentsOf: UInt64(bitPattern: notAfter).bigEndianBytes)
        return b
    }

    /// Why a credential is not accepted, for the log and `kioskctl status`.
    public enum Refusal: Error, Equatable, Sendable, CustomStringConvertible {
        case unknownVersion(UInt8)
        case untrustedKey(KeyID)
        case badSignature
        case otherEvent(tenant: UInt32, event: UInt32)
        case notYetValid
        case expired
        case malformed(String)

        public var description: String {
            switch self {
            case .unknownVersion(let v): "peer credential version \(v) is not known to this kiosk"
            case .untrustedKey(let id):
                "peer credential signed with key \(id), which this kiosk does not trust: add the server's keys to "
                    + "kiosk.conf (the trusted_key lines `checkin-server signing-keys --tenant N` prints)"
            case .badSignature: "peer credential's signature does not verify"
            case .otherEvent(let tenant, let event): "peer credential is for tenant \(tenant) event \(event)"
            case .notYetValid: "peer credential is not valid yet (check the clocks)"
            case .expired: "peer credential has expired (the peer has not reached the server for a day)"
            case .malformed(let why): "peer credential is malformed: \(why)"
            }
        }
    }

    /// Checks the credential for a peer of `tenant`'s `event` at `now` (seconds since 1970), with the verifier of
    /// the kiosk's trusted pass keys. Bounds are checked before the signature.
    public func check(
        tenant: UInt32, event: UInt32, now: Int64, verifier: some PassSignatureVerifier
    ) -> Refusal? {
        guard version == Self.currentVersion else { return .unknownVersion(version) }
        guard (1...64).contains(deviceId.utf8.count), (1...256).contains(door.utf8.count) else {
            return .malformed("device id or door of a wrong length")
        }
        guard peerKey.count == 65, peerKey.first == 4 else { return .malformed("peer key is not a P-256 point") }
        // Within 1970...9999 before `notBefore - 300` below.
        guard ClockDistance.seconds.contains(notBefore), ClockDistance.seconds.contains(notAfter) else {
            return .malformed("valid from \(notBefore) to \(notAfter), not times between 1970 and 9999")
        }
        guard signature.count == 64 else { return .malformed("signature of \(signature.count) bytes") }
        guard verifier.trustsKey(keyID) else { return .untrustedKey(keyID) }
        guard verifier.isValidSignature(signature, of: signedMessage, keyID: keyID) else { return .badSignature }
        guard self.tenant == tenant, self.event == event else {
            return .otherEvent(tenant: self.tenant, event: self.event)
        }
        guard now >= notBefore - 300 else { return .notYetValid }
        guard now <= notAfter else { return .expired }
        return nil
    }

    /// Checks the credential as the author of items another door passes on: the server's signature, the tenant
    /// and the event, but not the time. An item signed while the credential held stays its author's after the
    /// credential expires (a revocation, checked apart, is what takes a device's word away).
    public func checkAsAuthor(tenant: UInt32, event: UInt32, verifier: some PassSignatureVerifier) -> Refusal? {
        check(tenant: tenant, event: event, now: notBefore, verifier: verifier)
    }
}
