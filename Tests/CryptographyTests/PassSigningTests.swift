import KioskCore
import PassFormat
import Testing

@testable import Cryptography

@Suite struct PassSigningTests {
    let issuerKey = try! Ed25519PrivateKey(seed: Array(repeating: 7, count: 32))
    let otherKey = try! Ed25519PrivateKey(seed: Array(repeating: 9, count: 32))

    func validator(trusting keys: [KeyID: Ed25519PrivateKey]) throws -> PassValidator {
        var trusted = TrustedKeys()
        for (id, k) in keys { trusted.trust(try k.publicKey, as: id) }
        return PassValidator(tenant: TenantID(7), event: EventID(4711), verifier: trusted)
    }

    func issue(keyID: KeyID = 1, key: Ed25519PrivateKey? = nil, tenant: UInt32 = 7, event: UInt32 = 4711) throws
        -> PassToken
    {
        try PassIssuer(keyID: keyID, tenant: TenantID(tenant), event: EventID(event), privateKey: key ?? issuerKey)
            .issue(for: GuestID.random())
    }

    func check(_ token: PassToken, _ v: PassValidator) -> PassCheck {
        v.check(payload: Array(token.url(base: "https://pass.example.org/p").utf8))
    }

    @Test func aGenuinePassIsValid() throws {
        let token = try issue()
        #expect(check(token, try validator(trusting: [1: issuerKey])) == .valid(token))
    }

    @Test func keysRotate() throws {
        let v = try validator(trusting: [1: issuerKey, 2: otherKey])
        let old = try issue(keyID: 1)
        let new = try issue(keyID: 2, key: otherKey)
        #expect(check(old, v) == .valid(old))
        #expect(check(new, v) == .valid(new))
    }

    @Test func eachFailureIsNamedForTheAuditLog() throws {
        let v = try validator(trusting: [1: issuerKey])
        #expect(check(try issue(keyID: 1, key: otherKey), v) == .rejected(.badSignature))
        #expect(check(try issue(keyID: 9, key: otherKey), v) == .rejected(.unknownKey(9)))
        #expect(check(try issue(event: 4712), v) == .rejected(.otherEvent(EventID(4712))))
        #expect(check(try issue(tenant: 8), v) == .rejected(.otherTenant(TenantID(8))))
    }

    @Test func anyChangedBitBreaksTheSignature() throws {
        let v = try validator(trusting: [1: issuerKey])
        let token = try issue()
        for i in 1..<PassToken.byteLength {  // byte 0 is the version
            var bytes = token.bytes
            bytes[i] ^= 0x10
            let altered = try PassToken(bytes: bytes)
            if case .valid = check(altered, v) { Issue.record("byte \(i) altered and still valid") }
        }
    }

    @Test func forgedPassClaimingAnotherEventIsRecordedAsForged() throws {
        let v = try validator(trusting: [1: issuerKey])
        #expect(check(try issue(keyID: 1, key: otherKey, event: 4712), v) == .rejected(.badSignature))
    }

    @Test func keysRoundTripThroughPEM() throws {
        let key = try Ed25519PrivateKey.generate()
        let pem = try key.pem()
        #expect(pem.contains("BEGIN PRIVATE KEY"))
        let again = try Ed25519PrivateKey(pem: pem)
        #expect(try again.publicKey == key.publicKey)
        let pubPEM = try key.publicKey.pem()
        #expect(pubPEM.contains("BEGIN PUBLIC KEY"))
        #expect(try Ed25519PublicKey(pem: pubPEM) == key.publicKey)
        #expect(try TrustedKeys.loadKey("ed25519:" + key.publicKey.base64, relativeTo: "/") == key.publicKey)
    }

    @Test func badKeyMaterialGivesAClearError() {
        #expect(throws: CryptoError.self) { try Ed25519PublicKey(pem: "not a key") }
        do {
            _ = try TrustedKeys.loadKey("/nonexistent/key.pem", relativeTo: "/")
            Issue.record("loaded a missing file")
        } catch {
            #expect(error.description.contains("/nonexistent/key.pem"))
        }
    }
}
