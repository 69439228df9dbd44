import CheckinCore
import Foundation
import Testing
import WireAPI

/// The server reads uploads without JSONDecoder, writes their answers without JSONEncoder and stores each
/// item's answer without JSONEncoder: each must agree with what the coders read and write.
@Suite("Check-in batch JSON, read and written directly")
struct CheckInBatchJSONTests {
    static let at = Date(timeIntervalSince1970: 1_795_431_795.123)

    static let batch = CheckInBatch(items: [
        CheckInItem(
            key: ItemKey(deviceId: "dev-1", epoch: "e\"1\\", sequence: 9_007_199_254_740_993),
            guestId: "AAAAAAAAAAAAAAAA",
            kind: .checkIn, scannedAt: at, clockOffsetMs: -1_234, arrived: 3, door: "Émile \"North\" / 日本 🎉\n",
            source: "camera"),
        CheckInItem(
            key: ItemKey(deviceId: "dev-1", epoch: "e1", sequence: 2), guestId: "BBBBBBBBBBBBBBBB", kind: .revert,
            scannedAt: at.addingTimeInterval(0.001), clockOffsetMs: nil, arrived: 1, door: "", source: "keyboard",
            reverts: ItemKey(deviceId: "dev-1", epoch: "e1", sequence: 1)),
        CheckInItem(
            key: ItemKey(deviceId: "dev-1", epoch: "e1", sequence: 3), guestId: "x", kind: .reconfirm, scannedAt: at,
            clockOffsetMs: 0, arrived: 0, door: "South", source: "search"),
    ])

    @Test("CheckInBatch(json:) reads what APICoding's decoder reads, nulls, unknown keys and white space too")
    func readsAsJSONDecoder() throws {
        let encoded = try APICoding.encoder().encode(Self.batch)
        let texts = [
            String(decoding: encoded, as: UTF8.self),
            #"{ "extra": [1, {"a": null}], "items" : [ {"key": {"deviceId": "d", "epoch": "e", "sequence": 1, "x": 2}, "#
                + #""guestId": "AAAAAAAAAAAAAAAA", "kind": "check_in", "scannedAt": "2026-11-23T10:30:00.000Z", "#
                + #""clockOffsetMs": null, "arrived": 1, "door": "N\u00e9\/", "source": "camera", "reverts": null } ] }"#,
        ]
        for text in texts {
            let direct = try Array(text.utf8).withUnsafeBytes { try CheckInBatch(json: $0) }
            #expect(direct == (try APICoding.decoder().decode(CheckInBatch.self, from: Data(text.utf8))))
        }
        // What the direct reader refuses goes to JSONDecoder, which decides.
        for text in [#"{"items":[{"arrived":1.0}]}"#, #"{"items":[]"#, "[]", #"{"items":[{"kind":"fly"}]}"#] {
            #expect(throws: (any Error).self) { try Array(text.utf8).withUnsafeBytes { try CheckInBatch(json: $0) } }
        }
    }

    /// An unknown key's value is skipped by recursion: a body of half a million `[` overflowed the stack (a
    /// device's one upload killed the server). Nesting past `maximumDepth` is refused, and JSONDecoder, which
    /// decides then, refuses it too.
    @Test("an upload nested too deep is refused, not recursed into")
    func deepNestingIsRefused() throws {
        let deep = #"{"extra":"# + String(repeating: "[", count: 500_000) + String(repeating: "]", count: 500_000) + "}"
        let error = try #require(throws: RosterPageJSONError.self) {
            try Array(deep.utf8).withUnsafeBytes { try CheckInBatch(json: $0) }
        }
        #expect(error.problem.contains("nested more than 32 deep"), "\(error)")
        #expect(throws: (any Error).self) { try APICoding.decoder().decode(CheckInBatch.self, from: Data(deep.utf8)) }
        // As deep as the reader allows still reads.
        let allowed =
            #"{"extra":"# + String(repeating: "[", count: 31) + String(repeating: "]", count: 31) + #","items":[]}"#
        #expect(try Array(allowed.utf8).withUnsafeBytes { try CheckInBatch(json: $0) } == CheckInBatch(items: []))
        let page =
            #"{"guests":[],"extra":"# + String(repeating: "{\"a\":", count: 100) + "1"
            + String(repeating: "}", count: 100) + "}"
        #expect(throws: RosterPageJSONError.self) { try RosterPage(json: Data(page.utf8)) }
    }

    @Test("encodedJSON writes what APICoding's encoder writes")
    func writesAsJSONEncoder() throws {
        let result = CheckInBatchResult(
            outcomes: [
                CheckInOutcome(
                    sequence: 1, outcome: .applied,
                    checkIn: CheckInSummary(
                        door: "North \"1\" / é", at: Self.at, arrived: 2, deviceId: "d", sequence: 1)),
                CheckInOutcome(
                    sequence: 2, outcome: .superseded, checkIn: CheckInSummary(door: "South", at: Self.at, arrived: 1)),
                CheckInOutcome(sequence: 3, outcome: .rejected, reason: "unknown_guest\u{1}"),
                CheckInOutcome(sequence: -4, outcome: .recorded),
            ], serverTime: Self.at)
        let expected = try APICoding.encoder().encode(result)
        #expect(
            result.encodedJSON() == Array(expected),
            "\(String(decoding: result.encodedJSON(), as: UTF8.self))\n\(String(decoding: expected, as: UTF8.self))")
    }

    @Test("A stored answer reads back as JSONEncoder's would, and JSONEncoder's stored answers still read")
    func storedAnswers() throws {
        let outcomes = [
            ScanOutcome(
                kind: .superseded,
                checkIn: CheckInSummary(
                    door: "Nörth \"1\"\\\n", at: Date(timeIntervalSinceReferenceDate: 786_000_000.123_456_7),
                    arrived: 2,
                    deviceId: "d/1", sequence: 7)),
            ScanOutcome(kind: .applied, checkIn: CheckInSummary(door: "S", at: Self.at, arrived: 1)),
            ScanOutcome(kind: .rejected, reason: "unknown_guest"),
            ScanOutcome(kind: .recorded),
        ]
        for outcome in outcomes {
            let stored = try outcome.storedAnswer()
            #expect(try ScanOutcome(storedAnswer: stored) == outcome, "\(stored)")
            let old = String(decoding: try JSONEncoder().encode(outcome), as: UTF8.self)
            #expect(try ScanOutcome(storedAnswer: old) == outcome)
            #expect(try JSONDecoder().decode(ScanOutcome.self, from: Data(stored.utf8)) == outcome)
        }
    }
}
