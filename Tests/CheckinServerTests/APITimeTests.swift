import Foundation
import Testing
import WireAPI

@Suite("API times: RFC 3339 with milliseconds")
struct APITimeTests {
    @Test("a time of whole milliseconds is written as it is, and reads back to the same text")
    func wholeMillisecondsSurvive() throws {
        let base = Date(timeIntervalSince1970: 1_795_431_795)
        for step in 0..<2000 {
            let time = base.addingTimeInterval(Double(step) * 1.25 + Double(step * 7919 % 250) / 1000)
            let milliseconds = Int64((time.timeIntervalSince1970 * 1000).rounded())
            let text = APITime.text(time)
            #expect(text.hasSuffix(String(format: ".%03dZ", Int(milliseconds % 1000))), "\(text)")
            let back = try #require(APITime.date(text))
            #expect(Int64((back.timeIntervalSince1970 * 1000).rounded()) == milliseconds, "\(text)")
            #expect(APITime.text(back) == text)
        }
    }

    /// A device or a webhook may send any year Foundation reads (up to 144683): only years 1 to 9999 are times,
    /// so no time from outside comes near the edges of the arithmetic done on it (PostgresNIO's microseconds).
    @Test("a time is read only within years 1 to 9999")
    func onlyFourDigitYearsAreTimes() throws {
        #expect(APITime.date("0001-01-01T00:00:00.000Z") != nil)
        #expect(APITime.date("9999-12-31T23:59:59.999Z") != nil)
        for text in [
            "10000-01-01T00:00:00Z", "+144683-01-01T00:00:00.000Z", "-0001-01-01T00:00:00Z",
            "2026-11-23T11:03:15." + String(repeating: "9", count: 100) + "Z",
        ] {
            #expect(APITime.date(text) == nil, "\(text)")
        }
    }

    @Test("a finer time is rounded to the nearest millisecond")
    func rounded() {
        let time = Date(timeIntervalSince1970: 1_795_431_795.123_6)
        #expect(APITime.text(time) == "2026-11-23T11:03:15.124Z")
        #expect(APITime.text(Date(timeIntervalSince1970: 1_795_431_795.999_7)) == "2026-11-23T11:03:16.000Z")
    }

    @Test("a time read with a finer fraction than milliseconds is the same time when written and read again")
    func finerFractionReadsBackTheSame() throws {
        // The roster page fuzzer's find: "…00.0005Z" read as 0.5 ms, written as ".001Z", read as 1 ms.
        for text in ["2026-12-01T18:00:00.0005Z", "2026-12-01T18:00:00.1234567Z", "2026-12-01T18:00:00.9996Z"] {
            let read = try #require(APITime.date(text))
            let again = try #require(APITime.date(APITime.text(read)))
            #expect(again == read, "\(text)")
        }
        #expect(APITime.date("2026-12-01T18:00:00.0005Z") == APITime.date("2026-12-01T18:00:00.001Z"))
        #expect(APITime.date("2026-12-01T18:00:00.9996Z") == APITime.date("2026-12-01T18:00:01Z"))
    }
}
