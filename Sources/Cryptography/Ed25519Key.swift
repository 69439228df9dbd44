internal import SwiftASN1

/// Ed25519 keys as PEM: a public key as SubjectPublicKeyInfo ("PUBLIC KEY"), a private key as PKCS#8 v1
/// ("PRIVATE KEY"), both fixed DER around the 32 key bytes (RFC 8410), as OpenSSL and `kioskctl keygen` write them.
/// The PEM armour is swift-asn1's; the DER is checked byte for byte, so a key of another algorithm (X25519, P-256)
/// or another layout is refused by name rather than read as something else.
enum Ed25519PEM {
    /// SEQUENCE { SEQUENCE { OID 1.3.101.112 }, BIT STRING (33 bytes: no unused bits, then the key) }.
    static let publicPrefix: [UInt8] = [
        0x30, 0x2A, 0x30, 0x05, 0x06, 0x03, 0x2B, 0x65, 0x70, 0x03, 0x21, 0x00,
    ]
    /// SEQUENCE { INTEGER 0, SEQUENCE { OID 1.3.101.112 }, OCTET STRING { OCTET STRING (32 bytes: the seed) } }.
    static let privatePrefix: [UInt8] = [
        0x30, 0x2E, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2B, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20,
    ]

    /// The largest PEM text read as a key: an Ed25519 key's PEM is about 120 bytes.
    static let maximumPEMSize = 64 << 10

    /// The 32 key bytes of a PEM key, or an error that names the file and what is wrong with it.
    static func keyBytes(_ pem: String, privateKey: Bool, name: String) throws(CryptoError) -> [UInt8] {
        let what = privateKey ? "private" : "public"
        let operation = "reading \(what) key \(name)"
        guard pem.utf8.count <= maximumPEMSize else {
            throw CryptoError(
                operation: operation,
                detail: "\(pem.utf8.count) bytes, more than a key file's \(maximumPEMSize): is it the right file?")
        }
        let document: PEMDocument
        do {
            document = try PEMDocument(pemString: pem)
        } catch {
            throw CryptoError(operation: operation, detail: "not a PEM \(what) key (\(error))")
        }
        let label = privateKey ? "PRIVATE KEY" : "PUBLIC KEY"
        guard document.discriminator == label else {
            throw CryptoError(
                operation: operation,
                detail: "not a PEM \(what) key: it is a \"\(document.discriminator)\", not a \"\(label)\"")
        }
        let prefix = privateKey ? privatePrefix : publicPrefix
        let der = document.derBytes
        guard der.count == prefix.count + 32, der.starts(with: prefix) else {
            throw CryptoError(operation: operation, detail: "the key is not an Ed25519 key")
        }
        return Array(der.dropFirst(prefix.count))
    }

    /// The PEM of 32 key bytes.
    static func pem(_ key: [UInt8], privateKey: Bool) -> String {
        PEMDocument(
            type: privateKey ? "PRIVATE KEY" : "PUBLIC KEY", derBytes: (privateKey ? privatePrefix : publicPrefix) + key
        ).pemString + "\n"
    }
}
