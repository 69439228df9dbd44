import Foundation
import Testing
import WireAPI

/// The server writes roster pages without JSONEncoder and the kiosk reads them without JSONDecoder; both
/// must agree with `APICoding`, byte for byte and value for value, so old kiosks and other clients see the
/// same JSON as before.
@Suite("Roster page JSON, written and read directly")
struct RosterPageJSONTests {
    static let at = Date(timeIntervalSince1970: 1_795_431_795.123)

    static let pages: [RosterPage] = [
        RosterPage(
            guests: [
                GuestRecord(
                    id: "AAAAAAAAAAAAAAAA", name: "Émile \"Zo\\la\" / 日本 🎉", email: "e@example.org",
                    phone: "+33 1\n2\t3\r", partySize: 3, ticketType: "VIP", checkInNote: "back\u{8}space\u{C}",
                    arrivalAlert: "\u{0}\u{1F}\u{7F}", status: .cancelled, version: 9_007_199_254_740_993,
                    checkIn: CheckInSummary(door: "North \"1\"", at: at, arrived: 2)),
                GuestRecord(id: "BBBBBBBBBBBBBBBB", name: "", version: 1),
                GuestRecord(id: "CCCCCCCCCCCCCCCC", name: "Anna", partySize: -1, version: 0),
            ], nextPage: "p1:7:CCCCCCCCCCCCCCCC", complete: false, changeCursor: "c1:7", total: 1200,
            serverTime: at),
        RosterPage(guests: [], nextPage: nil, complete: true, changeCursor: nil, total: nil, serverTime: at),
    ]

    @Test("encodedJSON writes what APICoding's encoder writes")
    func writesAsJSONEncoder() throws {
        for page in Self.pages {
            let expected = try APICoding.encoder().encode(page)
            #expect(
                page.encodedJSON() == Array(expected),
                "\(String(decoding: page.encodedJSON(), as: UTF8.self))\n\(String(decoding: expected, as: UTF8.self))")
        }
    }

    @Test("RosterPage(json:) reads what APICoding's decoder reads, escapes, unknown keys and white space too")
    func readsAsJSONDecoder() throws {
        for page in Self.pages {
            let data = Data(page.encodedJSON())
            #expect(try RosterPage(json: data) == APICoding.decoder().decode(RosterPage.self, from: data))
        }
        let text = """
             { "serverTime" : "2026-11-23T10:30:00.000Z", "future": {"a": [1, 2.5e3, true, null, "x"]},
              "complete": true, "guests": [ {"id": "AAAAAAAAAAAAAAAA", "name": "\\u00c9mile \\ud83c\\udf89 \\/",
              "partySize": 2, "status": "active", "version": 3, "email": null, "checkIn": null, "new": {}} ] }
            """
        let data = Data(text.utf8)
        let page = try RosterPage(json: data)
        #expect(page == (try APICoding.decoder().decode(RosterPage.self, from: data)))
        #expect(page.guests.first?.name == "Émile 🎉 /")
    }

    @Test("what it does not expect throws, so the client falls back to JSONDecoder")
    func refusesTheUnexpected() {
        for text in [
            "", "{", #"{"complete": true}"#, #"{"guests": [], "complete": 1, "serverTime": "2026-11-23T10:30:00Z"}"#,
            #"{"guests": [{"id": "A", "name": "B", "partySize": 1.5, "status": "active", "version": 1}], "complete": true, "serverTime": "2026-11-23T10:30:00Z"}"#,
            #"{"guests": [], "complete": true, "serverTime": "2026-11-23T10:30:00Z"} x"#,
            "{\"guests\": [], \"complete\": true, \"serverTime\": \"2026-11-23T10:30:00Z\", \"nextPage\": \"a\u{1}\"}",
        ] {
            #expect(throws: (any Error).self, "\(text)") { try RosterPage(json: Data(text.utf8)) }
        }
    }
}
