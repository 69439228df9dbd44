import CheckinWebhooks
import Foundation
import Testing

/// Standard Webhooks, against the specification's published vectors (standard-webhooks/standard-webhooks,
/// libraries/python/tests/test_webhooks.py and libraries/javascript/src/webhook.test.ts) and our own signer.
struct StandardWebhookTests {
    static let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
    static let id = "msg_p5jXN8AQM9LWM0D4loKWxJek"
    static let timestamp: Int64 = 1_614_265_330
    static let body = Array(#"{"test": 2432232314}"#.utf8)
    static let expected = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="
    static let at = Date(timeIntervalSince1970: TimeInterval(timestamp))

    static func verify(
        id: String? = id, timestamp: String? = String(timestamp), signature: String? = expected, body: [UInt8] = body,
        secrets: [String] = [secret], now: Date = at
    ) throws(WebhookVerificationError) -> String {
        try StandardWebhook.verify(
            id: id, timestamp: timestamp, signature: signature, body: body,
            secrets: secrets.map { try! WebhookSecretKey($0) }, now: now)
    }

    @Test func theSpecificationsSignVectorIsReproduced() throws {
        let signature = StandardWebhook.sign(
            id: Self.id, timestamp: Self.timestamp, body: Self.body, secret: try WebhookSecretKey(Self.secret))
        #expect(signature == Self.expected)
        #expect(try Self.verify() == Self.id)
    }

    @Test func theSecretWorksWithAndWithoutItsPrefixAndPadding() throws {
        #expect(try WebhookSecretKey("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw") == WebhookSecretKey(Self.secret))
        // The vectors' unpadded secrets: one and two padding characters left out.
        #expect(
            try WebhookSecretKey("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaS")
                == WebhookSecretKey("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaS="))
        #expect(
            try WebhookSecretKey("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSwBr")
                == WebhookSecretKey("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSwBr=="))
        #expect(throws: WebhookVerificationError.badSecret) { try WebhookSecretKey("whsec_") }
        #expect(throws: WebhookVerificationError.badSecret) { try WebhookSecretKey("whsec_not base64!") }
    }

    @Test func missingHeadersAndABadTimestampAreRefused() {
        #expect(throws: WebhookVerificationError.missingHeader("webhook-id")) { try Self.verify(id: nil) }
        #expect(throws: WebhookVerificationError.missingHeader("webhook-timestamp")) { try Self.verify(timestamp: nil) }
        #expect(throws: WebhookVerificationError.missingHeader("webhook-signature")) { try Self.verify(signature: nil) }
        #expect(throws: WebhookVerificationError.badTimestamp) { try Self.verify(timestamp: "hello") }
    }

    /// A timestamp at the edge of Int64 is refused as not a time: `-9223372036854775808 - now` trapped, and one
    /// anonymous request killed the server.
    @Test func timestampsAtTheEdgesOfInt64AreRefusedWithoutTrapping() {
        for timestamp in ["-9223372036854775808", "9223372036854775807", "-1", "253402300800", "1e9"] {
            #expect(throws: WebhookVerificationError.badTimestamp, "\(timestamp)") {
                try Self.verify(timestamp: timestamp)
            }
        }
        // Within 1970...9999 but far off: said in seconds, both ways.
        #expect(throws: WebhookVerificationError.timestampOutOfRange(secondsOff: -Self.timestamp)) {
            try Self.verify(timestamp: "0")
        }
        #expect(throws: WebhookVerificationError.timestampOutOfRange(secondsOff: 253_402_300_799 - Self.timestamp)) {
            try Self.verify(timestamp: "253402300799")
        }
    }

    @Test func theVectorsInvalidSignatureAndATamperedBodyAreRefused() {
        // One character changed in the last block (the vectors' invalid signature).
        #expect(throws: WebhookVerificationError.noMatchingSignature) {
            try Self.verify(signature: "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OA=")
        }
        #expect(throws: WebhookVerificationError.noMatchingSignature) {
            try Self.verify(body: Array(#"{"test": 2432232315}"#.utf8))
        }
        #expect(throws: WebhookVerificationError.noMatchingSignature) { try Self.verify(id: "msg_other") }
        // A v2 (or unknown) scheme with the right bytes does not count as v1.
        #expect(throws: WebhookVerificationError.noMatchingSignature) {
            try Self.verify(signature: "v2," + Self.expected.dropFirst(3))
        }
        #expect(throws: WebhookVerificationError.noMatchingSignature) {
            try Self.verify(secrets: ["whsec_" + Data(repeating: 7, count: 32).base64EncodedString()])
        }
    }

    @Test func aTimestampMoreThanFiveMinutesAwayIsRefused() throws {
        #expect(try Self.verify(now: Self.at.addingTimeInterval(300)) == Self.id)
        #expect(try Self.verify(now: Self.at.addingTimeInterval(-300)) == Self.id)
        #expect(throws: WebhookVerificationError.timestampOutOfRange(secondsOff: -301)) {
            try Self.verify(now: Self.at.addingTimeInterval(301))
        }
        #expect(throws: WebhookVerificationError.timestampOutOfRange(secondsOff: 301)) {
            try Self.verify(now: Self.at.addingTimeInterval(-301))
        }
    }

    @Test func oneValidSignatureAmongSeveralIsEnoughAndSecretsRotate() throws {
        // The vectors' multi-signature header.
        let several = [
            "v1,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc=", "v2,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc=",
            Self.expected, "v1,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc=",
        ].joined(separator: " ")
        #expect(try Self.verify(signature: several) == Self.id)
        // The receiver holding the new and the old secret accepts a message signed with either.
        let newer = WebhookSecretKey.generate()
        #expect(try Self.verify(secrets: [newer, Self.secret]) == Self.id)
        let signedWithNewer = StandardWebhook.sign(
            id: "msg_2", timestamp: Self.timestamp, body: Self.body, secret: try WebhookSecretKey(newer))
        #expect(try Self.verify(id: "msg_2", signature: signedWithNewer, secrets: [newer, Self.secret]) == "msg_2")
        #expect(throws: WebhookVerificationError.noMatchingSignature) {
            try Self.verify(id: "msg_2", signature: signedWithNewer, secrets: [Self.secret])
        }
    }

    @Test func generatedSecretsAreThirtyTwoRandomBytes() throws {
        let a = try WebhookSecretKey(WebhookSecretKey.generate())
        let b = try WebhookSecretKey(WebhookSecretKey.generate())
        #expect(a.bytes.count == 32 && a != b)
    }
}
