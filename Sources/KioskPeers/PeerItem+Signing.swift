import Crypto
import KioskCore

extension PeerItem {
    /// The item signed by its author with the door's peer key.
    func signed(with key: P256.Signing.PrivateKey) throws -> PeerItem {
        var signed = fact
        signed.signature = Array(try key.signature(for: signedMessage).rawRepresentation)
        return signed
    }

    /// Whether `signature` is the signature of the item by the holder of `peerKey` (X9.63, as a credential
    /// names it).
    func isSigned(by peerKey: [UInt8]) -> Bool {
        guard let signature, let key = try? P256.Signing.PublicKey(x963Representation: peerKey),
            let parsed = try? P256.Signing.ECDSASignature(rawRepresentation: signature)
        else { return false }
        return key.isValidSignature(parsed, for: signedMessage)
    }
}
