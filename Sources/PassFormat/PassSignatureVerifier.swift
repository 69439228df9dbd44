/// Checks the signatures of passes and of the records signed with the same keys (credentials, notices), for
/// the kiosk and the server alike. `Cryptography.TrustedKeys` implements it; the domain modules need only this.
public protocol PassSignatureVerifier: Sendable {
    /// Whether a public key with this id is trusted here.
    func trustsKey(_ keyID: KeyID) -> Bool
    /// Whether `signature` is a valid signature of `message` by the trusted key `keyID`.
    func isValidSignature(_ signature: [UInt8], of message: [UInt8], keyID: KeyID) -> Bool
}
