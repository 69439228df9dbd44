import Crypto
import Foundation
import KioskCore
import NIOSSL
import PassFormat
import SignedRecords
import SwiftASN1
import X509

/// This door on the LAN: its P-256 key pair (made here, kept in the kiosk's encrypted database) and the server's
/// credential for it, carried inside a self-signed certificate that the door presents in every TLS handshake, as
/// a server and as a client. No certificate authority is involved: a peer trusts the certificate because the
/// credential inside it is signed by the tenant's key and names the certificate's own public key.
public struct PeerIdentity: Sendable {
    public let credential: PeerCredential
    let certificate: NIOSSLCertificate
    let privateKey: NIOSSLPrivateKey
    /// Signs this door's announcements.
    let signingKey: P256.Signing.PrivateKey

    /// The credential's extension: an OID under RFC 5612's example enterprise arc, read only by these kiosks.
    static let credentialExtension: ASN1ObjectIdentifier = [1, 3, 6, 1, 4, 1, 32473, 23, 1]

    /// A new key pair, as raw private key bytes and its X9.63 public key.
    public static func newKeyPair() -> (privateKey: [UInt8], publicKey: [UInt8]) {
        let key = P256.Signing.PrivateKey()
        return (Array(key.rawRepresentation), Array(key.publicKey.x963Representation))
    }

    /// The identity of a stored key pair and a credential for it.
    public init(privateKey raw: [UInt8], credential: PeerCredential) throws(PeerError) {
        let key: P256.Signing.PrivateKey
        do {
            key = try P256.Signing.PrivateKey(rawRepresentation: raw)
        } catch {
            throw PeerError(operation: "reading this door's peer key", detail: "\(error)")
        }
        try self.init(key: key, credential: credential, checkingKey: true)
    }

    /// `checkingKey` false makes a certificate whose key is not the credential's: what an attacker who copied a
    /// door's credential would present (the tests').
    init(key: P256.Signing.PrivateKey, credential: PeerCredential, checkingKey: Bool) throws(PeerError) {
        let operation = "making this door's LAN certificate"
        do {
            guard !checkingKey || Array(key.publicKey.x963Representation) == credential.peerKey else {
                throw PeerError(
                    operation: operation,
                    detail: "the server's credential names another key than this kiosk's (wait for the next sync)")
            }
            let name = try DistinguishedName { CommonName("kiosk \(credential.deviceId)") }
            let value = try JSONEncoder().encode(credential)
            let certificate = try Certificate(
                version: .v3, serialNumber: Certificate.SerialNumber(),
                publicKey: Certificate.PublicKey(key.publicKey),
                notValidBefore: Date(timeIntervalSince1970: Double(credential.notBefore - 300)),
                notValidAfter: Date(timeIntervalSince1970: Double(credential.notAfter)),
                issuer: name, subject: name, signatureAlgorithm: .ecdsaWithSHA256,
                extensions: Certificate.Extensions([
                    Certificate.Extension(oid: Self.credentialExtension, critical: false, value: ArraySlice(value))
                ]),
                issuerPrivateKey: Certificate.PrivateKey(key))
            var serializer = DER.Serializer()
            try serializer.serialize(certificate)
            self.certificate = try NIOSSLCertificate(bytes: serializer.serializedBytes, format: .der)
            self.privateKey = try NIOSSLPrivateKey(bytes: Array(key.derRepresentation), format: .der)
            self.credential = credential
            self.signingKey = key
        } catch let error as PeerError {
            throw error
        } catch {
            throw PeerError(operation: operation, detail: "\(error)")
        }
    }

    /// The credential a peer presented in its certificate, checked: signed by a key this kiosk trusts, for this
    /// tenant and event, valid now, and naming the certificate's own public key (the TLS handshake has proven
    /// that the peer holds its private half).
    public static func verifiedCredential(
        of presented: NIOSSLCertificate, tenant: UInt32, event: UInt32, now: Date,
        verifier: some PassSignatureVerifier
    ) throws(PeerError) -> PeerCredential {
        let operation = "checking a door's LAN certificate"
        let certificate: Certificate
        let credential: PeerCredential
        do {
            certificate = try Certificate(derEncoded: try presented.toDERBytes())
            guard let value = certificate.extensions.first(where: { $0.oid == Self.credentialExtension })?.value
            else {
                throw PeerError(operation: operation, detail: "it carries no peer credential")
            }
            guard value.count <= 4096 else { throw PeerError(operation: operation, detail: "credential too long") }
            credential = try JSONDecoder().decode(PeerCredential.self, from: Data(value))
        } catch let error as PeerError {
            throw error
        } catch {
            throw PeerError(operation: operation, detail: "not readable: \(error)")
        }
        if let refusal = credential.check(
            tenant: tenant, event: event, now: Int64(now.timeIntervalSince1970), verifier: verifier)
        {
            throw PeerError(operation: operation, detail: refusal.description)
        }
        guard let key = P256.Signing.PublicKey(certificate.publicKey),
            Array(key.x963Representation) == credential.peerKey
        else {
            throw PeerError(operation: operation, detail: "its key is not the key its credential names")
        }
        return credential
    }
}
