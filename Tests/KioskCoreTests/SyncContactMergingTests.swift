import Foundation
import KioskCore
import Testing

/// The kiosk keeps the most precise clock offset it measured (NTP's minimum-delay filter), aged by drift.
@Suite struct SyncContactMergingTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    static func contact(_ seconds: Double, offset: Int64, uncertainty: Int64?) -> SyncContact {
        SyncContact(
            at: start.addingTimeInterval(seconds), clockOffsetMilliseconds: offset,
            clockOffsetUncertaintyMilliseconds: uncertainty)
    }

    @Test func aSlowExchangeDoesNotReplaceAPreciseMeasure() {
        let precise = Self.contact(0, offset: -300_000, uncertainty: 40)
        // A 26 s round trip a minute later: its midpoint estimate is 13 s off.
        let slow = Self.contact(60, offset: -313_000, uncertainty: 13_000)
        let kept = precise.merged(with: slow)
        #expect(kept.clockOffsetMilliseconds == -300_000)
        #expect(kept.at == slow.at, "the contact's time is the new exchange's")
        let aged: Int64 = 40 + 60_000 * 200 / 1_000_000  // 12 ms of drift in a minute
        #expect(kept.clockOffsetUncertaintyMilliseconds == aged)
    }

    @Test func aMorePreciseExchangeReplacesTheKeptMeasure() {
        let rough = Self.contact(0, offset: -301_000, uncertainty: 2_000)
        let precise = Self.contact(10, offset: -300_010, uncertainty: 15)
        #expect(rough.merged(with: precise) == precise)
    }

    @Test func theKeptMeasureAgesUntilAFreshOneIsAsGood() {
        let precise = Self.contact(0, offset: -300_000, uncertainty: 10)
        let ordinary = Self.contact(3600, offset: -300_100, uncertainty: 500)
        // An hour of possible drift (720 ms) makes the old 10 ms measure worth less than a 500 ms one.
        #expect(precise.merged(with: ordinary) == ordinary)
        #expect(
            precise.merged(with: Self.contact(60, offset: -300_100, uncertainty: 500)).clockOffsetMilliseconds
                == -300_000)
    }

    @Test func aClockSetMeanwhileIsFollowedAtOnce() {
        let before = Self.contact(0, offset: -300_000, uncertainty: 10)
        // The kiosk's clock was corrected: the server now sees it 2 s slow, beyond both measures' bounds.
        let after = Self.contact(120, offset: 2_000, uncertainty: 900)
        #expect(before.merged(with: after) == after)
    }

    @Test func aContactWithoutUncertaintyIsReplaced() {
        let legacy = Self.contact(0, offset: -300_000, uncertainty: nil)
        let measured = Self.contact(30, offset: -299_000, uncertainty: 5_000)
        #expect(legacy.merged(with: measured) == measured)
    }
}
