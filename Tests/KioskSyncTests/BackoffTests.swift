import Foundation
import Testing

@testable import KioskSync

@Suite("Backoff and clock offset")
struct BackoffTests {
    @Test("the wait doubles per failure, between half and all of the ceiling, and stops at the maximum")
    func doubles() {
        let backoff = Backoff(base: .seconds(1), maximum: .seconds(60))
        #expect(backoff.delay(afterFailures: 1, unit: 0) == .milliseconds(500))
        #expect(backoff.delay(afterFailures: 1, unit: 1) == .seconds(1))
        #expect(backoff.delay(afterFailures: 4, unit: 0) == .seconds(4))
        #expect(backoff.delay(afterFailures: 4, unit: 1) == .seconds(8))
        #expect(backoff.delay(afterFailures: 40, unit: 1) == .seconds(60))
        for failures in 1...20 {
            let wait = backoff.delay(afterFailures: failures)
            #expect(wait >= .milliseconds(500) && wait <= .seconds(60))
        }
    }

    @Test("the offset is the server's time minus the midpoint of send and receive")
    func offset() {
        let sent = Date(timeIntervalSince1970: 1000)
        let received = Date(timeIntervalSince1970: 1002)
        // The device is 5 minutes fast: the server says 1001 - 300.
        #expect(
            ClockOffset.milliseconds(
                serverTime: Date(timeIntervalSince1970: 701), sentAt: sent, receivedAt: received) == -300_000)
        #expect(
            ClockOffset.milliseconds(
                serverTime: Date(timeIntervalSince1970: 1001.25), sentAt: sent, receivedAt: received) == 250)
    }
}
