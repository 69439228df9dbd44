import PassFormat
import Testing

@testable import KioskCore

@Suite struct Base32Tests {
    @Test func roundTripsEveryLength() {
        var g = SystemRandomNumberGenerator()
        for n in 0..<40 {
            let bytes = (0..<n).map { _ in UInt8.random(in: 0...255, using: &g) }
            let text = Base32.encode(bytes)
            #expect(text.count == (n * 8 + 4) / 5)
            #expect(Base32.decode(text.utf8) == bytes)
            #expect(Base32.decode(text.lowercased().utf8) == bytes)
        }
    }

    @Test func knownVector() {
        // RFC 4648 test vector, without padding.
        #expect(Base32.encode(Array("foobar".utf8)) == "MZXW6YTBOI")
    }

    @Test func rejectsCharactersOutsideTheAlphabet() {
        #expect(Base32.decode("MZXW6YTB0I".utf8) == nil)  // zero is not base32
        #expect(Base32.decode("MZXW6YTBO1".utf8) == nil)
        #expect(Base32.decode("MZXW6YTBOI=".utf8) == nil)
    }

    @Test func rejectsNonZeroTrailingBits() {
        // "MZXW6YTBOJ" differs from "MZXW6YTBOI" only in bits past the last byte.
        #expect(Base32.decode("MZXW6YTBOJ".utf8) == nil)
    }
}
