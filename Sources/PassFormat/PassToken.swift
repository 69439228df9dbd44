/// A pass: the compact signed token carried in a guest's QR code (format in `docs/PASS-FORMAT.md`).
///
/// Binary layout, version 1 (85 bytes, 136 base32 characters):
///
/// | bytes | field                                   |
/// |-------|-----------------------------------------|
/// | 0     | format version (1)                      |
/// | 1-2   | key id, big-endian                      |
/// | 3-6   | tenant id, big-endian                   |
/// | 7-10  | event id, big-endian                    |
/// | 11-20 | guest id (80 random bits)               |
/// | 21-84 | Ed25519 signature over the domain tag and bytes 0-20 |
public struct PassToken: Hashable, Sendable {
    public static let currentVersion: UInt8 = 1
    public static let bodyLength = 21
    public static let signatureLength = 64
    public static let byteLength = bodyLength + signatureLength
    public static let textLength = (byteLength * 8 + 4) / 5
    /// Prefixed to the body before signing so a pass signature can never be replayed as another kind of
    /// signature made with the same key.
    public static let domainTag = Array("qr-checkin-pass".utf8)

    public var version: UInt8
    public var keyID: KeyID
    public var tenant: TenantID
    public var event: EventID
    public var guest: GuestID
    public var signature: [UInt8]

    public init(
        version: UInt8 = PassToken.currentVersion, keyID: KeyID, tenant: TenantID, event: EventID,
        guest: GuestID, signature: [UInt8] = []
    ) {
        self.version = version
        self.keyID = keyID
        self.tenant = tenant
        self.event = event
        self.guest = guest
        self.signature = signature
    }

    /// Bytes 0-20: what the signature covers, after the domain tag.
    public var body: [UInt8] {
        var b = [UInt8]()
        b.reserveCapacity(Self.bodyLength)
        b.append(version)
        b.append(contentsOf: keyID.bigEndianBytes)
        b.append(contentsOf: tenant.rawValue.bigEndianBytes)
        b.append(contentsOf: event.rawValue.bigEndianBytes)
        b.append(contentsOf: guest.bytes)
        return b
    }

    /// The exact message the issuer signs and the kiosk verifies.
    public var signedMessage: [UInt8] { Self.domainTag + body }

    public var bytes: [UInt8] { body + signature }

    /// The token as it stands in the QR code: 136 upper-case base32 characters.
    public var text: String { Base32.encode(bytes) }

    /// The URL printed into the QR code: upper case, so the whole code fits QR alphanumeric mode.
    public func url(base: String) -> String {
        var b = base.uppercased()
        if !b.hasSuffix("/") { b += "/" }
        return b + text
    }
}

extension FixedWidthInteger {
    var bigEndianBytes: [UInt8] {
        withUnsafeBytes(of: self.bigEndian) { Array($0) }
    }

    init(bigEndianBytes bytes: ArraySlice<UInt8>) {
        self = bytes.reduce(0) { ($0 << 8) | Self($1) }
    }
}
