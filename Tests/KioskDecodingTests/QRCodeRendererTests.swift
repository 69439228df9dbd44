import KioskCore
import KioskDecoding
import QREncoding
import Testing

@Suite struct QRCodeRendererTests {
    /// 135 base32 characters (A-Z, 2-7).
    static let base32Token = String(String(repeating: "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", count: 5).prefix(135))

    @Test func upperCaseURLUsesAlphanumericModeAndFitsVersion11AtLevelH() throws {
        let text = "HTTPS://PASS.EXAMPLE.ORG/P/" + Self.base32Token
        #expect(text.count == 162)
        let code = try QRCodeRenderer.render(text)
        #expect(code.version <= 11)
        #expect(code.correction == .high)
        #expect(code.moduleCount == 17 + 4 * code.version)
        #expect(code.image.width == (code.moduleCount + 8) * 8)
        // Byte mode would need 162 bytes, more than version 11-H holds (140).
        #expect(try QRCodeRenderer.render(bytes: Array(text.utf8)).version > 11)
        #expect(ZBarScanner().scan(code.image) == [Array(text.utf8)])
    }

    @Test func imageHasBlackModulesOnWhiteWithQuietZone() throws {
        let code = try QRCodeRenderer.render("HELLO", moduleSize: 3, quietZone: 2)
        #expect(code.image.width == (code.moduleCount + 4) * 3)
        #expect(Set(code.image.pixels) == [0, 255])
        #expect(code.image[0, 0] == 255)
        #expect(code.image[6, 6] == 0)  // top-left corner of the top-left finder pattern
    }

    @Test func invalidUTF8BytesRoundTripThroughZBar() throws {
        let bytes: [UInt8] = [0xFF, 0xFE, 0x80, 0x41, 0x00, 0xC3, 0x28, 0x42]
        let code = try QRCodeRenderer.render(bytes: bytes, moduleSize: 4)
        #expect(ZBarScanner().scan(code.image) == [bytes])
    }

    @Test func nearlyThreeKilobytesOfGarbageFitAtLevelL() throws {
        let garbage = TestScenes.noise(width: 2_900, height: 1, seed: 7).pixels
        let code = try QRCodeRenderer.render(bytes: garbage, moduleSize: 3, correction: .low)
        #expect(code.version == 40)
        #expect(KioskDecoder().decode(code.image).map(\.payload) == [garbage])
    }

    @Test func tooLongDataIsERANGE() {
        let garbage = [UInt8](repeating: 0xA5, count: 3_072)
        #expect(throws: QRCodeError.tooLong(byteCount: 3_072, correction: .low)) {
            try QRCodeRenderer.render(bytes: garbage, correction: .low)
        }
        #expect(throws: QRCodeError.tooLong(byteCount: 2_000, correction: .high)) {
            try QRCodeRenderer.render(bytes: Array(garbage.prefix(2_000)))
        }
    }

    @Test func badLayoutIsRefused() {
        #expect(throws: QRCodeError.invalidLayout(moduleSize: 0, quietZone: 4)) {
            try QRCodeRenderer.render("X", moduleSize: 0)
        }
    }
}

/// A code's payload as text for people (`kioskctl decode`): what zxing-cpp makes of its character set, while the
/// door keeps the bytes.
@Suite struct PayloadTextTests {
    @Test func aShiftJISCodeReadsAsItsJapaneseText() throws {
        // "テスト駅" in Shift JIS, in 8-bit mode without an ECI: zxing-cpp recognises the character set.
        let bytes: [UInt8] = [0x83, 0x65, 0x83, 0x58, 0x83, 0x67, 0x89, 0x77]
        let image = try QRCodeRenderer.render(bytes: bytes, moduleSize: 6).image
        let decoder = KioskDecoder()
        let codes = decoder.decode(image)
        #expect(codes.map(\.payload) == [bytes], "the door gets the bytes")
        #expect(decoder.text(of: bytes, in: image) == "テスト駅")
        // The door's reads skip the text; it is made only when asked for.
        #expect(ZXingReader().sightings(image).map(\.text) == [nil])
        #expect(ZXingReader(withText: true).sightings(image).map(\.text) == ["テスト駅"])
    }

    @Test func asciiAndUTF8PayloadsAreTheirOwnText() throws {
        let decoder = KioskDecoder()
        let ascii = try QRCodeRenderer.render("HTTPS://PASS.EXAMPLE.ORG/P/ABC").image
        #expect(
            decoder.text(of: Array("HTTPS://PASS.EXAMPLE.ORG/P/ABC".utf8), in: ascii)
                == "HTTPS://PASS.EXAMPLE.ORG/P/ABC")
        let utf8 = try QRCodeRenderer.render("Zoë Ørsted").image
        #expect(decoder.text(of: Array("Zoë Ørsted".utf8), in: utf8) == "Zoë Ørsted")
        // Bytes no code in the image holds: UTF-8 when they are, else ISO 8859-1.
        #expect(decoder.text(of: [0x43, 0x61, 0x66, 0xE9], in: ascii) == "Café")
    }
}
