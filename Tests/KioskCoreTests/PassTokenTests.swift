import PassFormat
import Testing

@testable import KioskCore

@Suite struct PassTokenTests {
    static let guest = GuestID(bytes: Array(1...10))!
    static let token = PassToken(
        keyID: 513, tenant: TenantID(7), event: EventID(4711), guest: guest,
        signature: Array(repeating: 0xAB, count: 64))

    @Test func binaryLayoutIsAsDocumented() {
        let b = Self.token.bytes
        #expect(b.count == 85)
        #expect(b[0] == 1)
        #expect(Array(b[1..<3]) == [2, 1])
        #expect(Array(b[3..<7]) == [0, 0, 0, 7])
        #expect(Array(b[7..<11]) == [0, 0, 0x12, 0x67])
        #expect(Array(b[11..<21]) == Array(1...10))
        #expect(Self.token.text.count == PassToken.textLength)
        #expect(Self.token.signedMessage.starts(with: PassToken.domainTag))
    }

    @Test func parsesItsOwnURLAndBareToken() throws {
        let url = Self.token.url(base: "https://pass.example.org/p")
        #expect(url.hasPrefix("HTTPS://PASS.EXAMPLE.ORG/P/"))
        #expect(try PassToken(payload: Array(url.utf8)) == Self.token)
        #expect(try PassToken(payload: Array(Self.token.text.utf8)) == Self.token)
        #expect(try PassToken(payload: Array((url.lowercased() + "/").utf8)) == Self.token)
    }

    @Test func urlIsQRAlphanumeric() {
        let allowed = Set("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:")
        #expect(Self.token.url(base: "https://pass.example.org/p").allSatisfy { allowed.contains($0) })
    }

    @Test(arguments: [
        ("", PassFormatError.empty),
        ("https://example.com/some/page", PassFormatError.badCharacter),
        ("HTTPS://X/P/ABCDEFGH", PassFormatError.wrongLength(bytes: 5)),
        ("https://example.com/?t=x", PassFormatError.badCharacter),
        ("///", PassFormatError.noToken),
    ])
    func rejectsMalformed(payload: String, expected: PassFormatError) {
        #expect(throws: expected) { try PassToken(payload: Array(payload.utf8)) }
    }

    @Test func rejectsTruncatedAndPaddedTokens() {
        let text = Self.token.text
        #expect(throws: PassFormatError.self) { try PassToken(payload: Array(text.dropLast(8).utf8)) }
        #expect(throws: PassFormatError.self) { try PassToken(payload: Array((text + "AAAAAAAA").utf8)) }
    }

    @Test func rejectsGarbageInvalidUTF8AndHugePayloads() {
        #expect(throws: PassFormatError.notText) { try PassToken(payload: [0xFF, 0xFE, 0x41]) }
        #expect(throws: PassFormatError.tooLong(bytes: 3000)) {
            try PassToken(payload: [UInt8](repeating: 0x41, count: 3000))
        }
    }

    @Test func namesAnUnsupportedVersion() {
        var bytes = Self.token.bytes
        bytes[0] = 2
        #expect(throws: PassFormatError.unsupportedVersion(2)) { try PassToken(bytes: bytes) }
    }
}
