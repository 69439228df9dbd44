import Foundation
import KioskCore
import Testing

@testable import KioskStore

@Suite("Times as whole milliseconds, bounded")
struct StoreMillisecondsTests {
    static let cases: [(Double, Int64)] = [
        (1e300, Int64.max), (-1e300, Int64.min), (Double.infinity, Int64.max), (-Double.infinity, Int64.min),
        (Double.nan, 0), (9.3e15, Int64.max), (-9.3e15, Int64.min), (-9_223_372_036_854_775.808, Int64.min),
        (1_750_000_000.1234, 1_750_000_000_123), (-0.0004, 0), (0.0005, 1),
    ]

    @Test("times an Int64 of milliseconds cannot hold are clamped, not a crash", arguments: cases)
    func clamped(_ seconds: Double, _ expected: Int64) {
        #expect(Date.storeMilliseconds(seconds: seconds) == expected)
        if !seconds.isFinite || abs(seconds) > 1 {  // Date counts from 2001: sub-millisecond 1970 times blur
            #expect(Date(timeIntervalSince1970: seconds).storeMilliseconds == expected)
        }
    }

    @Test(
        "a check-in at an extreme time is recorded, queued with its key and read back",
        arguments: [1e300, -1e300, -Double.infinity])
    func extremeCheckIn(_ seconds: Double) throws {
        let store = try SQLiteDoorStore(path: SQLiteDoorStore.inMemory, mode: .createIfMissing)
        try store.upsertGuests([Fixture.anna])
        var checkIn = Fixture.checkIn(Fixture.anna, at: 0)
        checkIn.at = Date(timeIntervalSince1970: seconds)
        #expect(try store.record(checkIn: checkIn, attempt: Fixture.attempt(for: checkIn)) == .recorded)
        let bound = seconds > 0 ? Int64.max : Int64.min
        #expect(checkIn.idempotencyKey.hasSuffix("|\(bound)"))
        let queued = try #require(try store.pendingCheckIns(limit: 1).first)
        #expect(queued.checkIn.at.storeMilliseconds == bound)
    }

    @Test("a scan at an extreme time is audited and read back", arguments: [1e300, -1e300, Double.infinity])
    func extremeScan(_ seconds: Double) throws {
        let store = try SQLiteDoorStore(path: SQLiteDoorStore.inMemory, mode: .createIfMissing)
        let attempt = ScanAttempt(
            at: Date(timeIntervalSince1970: seconds), door: "D", source: .camera, payload: "P",
            guest: nil, verdict: "not_valid_here", reason: "r")
        try store.audit(attempt)
        let stored = try #require(try store.auditLog(limit: 1).first)
        #expect(stored.at.storeMilliseconds == (seconds > 0 ? Int64.max : Int64.min))
    }
}
