/// An IP address an offline-alert webhook would go to, and whether it lies inside a network: loopback, private
/// (RFC 1918, IPv6 unique local), link-local (169.254.0.0/16 with the clouds' metadata address, fe80::/10),
/// CGNAT (100.64.0.0/10), multicast, unspecified, reserved or broadcast. IPv4 inside IPv6 (mapped, compatible,
/// NAT64, 6to4) is judged as the IPv4 address it carries. Without `--allow-private-webhooks` only public
/// addresses are webhook destinations.
struct WebhookAddress: Equatable, Sendable {
    /// 4 bytes (IPv4) or 16 (IPv6), network order.
    let bytes: [UInt8]

    /// What kind of internal address this is; nil for a public one.
    var internalKind: String? {
        bytes.count == 4 ? Self.kind(v4: bytes) : Self.kind(v6: bytes)
    }

    static func kind(v4 b: [UInt8]) -> String? {
        switch (b[0], b[1]) {
        case (0, _): return "unspecified"
        case (10, _): return "private"
        case (100, 64...127): return "shared (CGNAT)"
        case (127, _): return "loopback"
        case (169, 254): return "link-local"
        case (172, 16...31): return "private"
        case (192, 168): return "private"
        case (192, 0) where b[2] == 0: return "reserved"
        case (198, 18...19): return "reserved"
        case (224...239, _): return "multicast"
        case (240...255, _): return "reserved"
        default: return nil
        }
    }

    static func kind(v6 b: [UInt8]) -> String? {
        let zeroPrefix = b[0..<10].allSatisfy { $0 == 0 }
        if zeroPrefix && b[10] == 0xff && b[11] == 0xff { return kind(v4: Array(b[12..<16])) }  // ::ffff:a.b.c.d
        if b[0..<12].allSatisfy({ $0 == 0 }) {
            if b[12..<15].allSatisfy({ $0 == 0 }) && b[15] <= 1 { return b[15] == 0 ? "unspecified" : "loopback" }
            return kind(v4: Array(b[12..<16]))  // ::a.b.c.d (IPv4-compatible)
        }
        // 64:ff9b::a.b.c.d (NAT64)
        if b[0..<12] == [0x00, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0] { return kind(v4: Array(b[12..<16])) }
        if b[0] == 0x20 && b[1] == 0x02 { return kind(v4: Array(b[2..<6])) }  // 6to4
        if b[0] == 0xff { return "multicast" }
        if b[0] == 0xfe && b[1] & 0xc0 == 0x80 { return "link-local" }
        if b[0] == 0xfe && b[1] & 0xc0 == 0xc0 { return "site-local" }
        if b[0] & 0xfe == 0xfc { return "private (unique local)" }
        return nil
    }
}
