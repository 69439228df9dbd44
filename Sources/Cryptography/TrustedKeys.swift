import Foundation
import PassFormat
import SystemCalls

/// The public keys a kiosk trusts, by key id: several at once, so issuer keys can rotate.
public struct TrustedKeys: PassSignatureVerifier {
    public private(set) var keys: [KeyID: Ed25519PublicKey]

    public init(_ keys: [KeyID: Ed25519PublicKey] = [:]) { self.keys = keys }

    public mutating func trust(_ key: Ed25519PublicKey, as id: KeyID) { keys[id] = key }

    public func trustsKey(_ keyID: KeyID) -> Bool { keys[keyID] != nil }

    public func isValidSignature(_ signature: [UInt8], of message: [UInt8], keyID: KeyID) -> Bool {
        keys[keyID]?.isValidSignature(signature, of: message) ?? false
    }

    /// Loads a key as written in kiosk.conf: `ed25519:<base64 of 32 bytes>`, or the path of a PEM public key.
    public static func loadKey(_ source: String, relativeTo base: String) throws(CryptoError) -> Ed25519PublicKey {
        if source.hasPrefix("ed25519:") {
            guard let raw = Data(base64Encoded: String(source.dropFirst(8))) else {
                throw CryptoError(operation: "trusted key \(source)", detail: "not valid base64")
            }
            return try Ed25519PublicKey(raw: Array(raw))
        }
        let path = source.hasPrefix("/") ? source : base + "/" + source
        // At most 64 KiB, and only a regular file: a key of 100 bytes named by a path to /dev/zero hung the read.
        let data: [UInt8]
        do {
            data = try RegularFile.read(path: path, limit: Ed25519PEM.maximumPEMSize)
        } catch {
            throw CryptoError(
                operation: "trusted key file \(path)",
                detail: "cannot be read (\(error)): give the path of a PEM public key, or ed25519:<base64>")
        }
        return try Ed25519PublicKey(pem: String(decoding: data, as: UTF8.self), name: path)
    }
}
