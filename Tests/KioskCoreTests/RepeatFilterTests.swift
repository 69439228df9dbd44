import Foundation
import Testing

@testable import KioskCore

@Suite struct RepeatFilterTests {
    /// Asks the filter outside `#expect`, which cannot call a mutating method.
    func seen(_ f: inout RepeatFilter, _ code: UInt8, _ t: Date) -> Bool { f.shouldProcess([code], at: t) }

    let t0 = Date(timeIntervalSince1970: 1_000_000)

    @Test func aCodeHeldInViewIsProcessedOnce() {
        var f = RepeatFilter(window: 3)
        #expect(seen(&f, 1, t0))
        // Seen every 1/30 s for ten seconds: never processed again.
        for i in 1...300 { #expect(!seen(&f, 1, t0 + Double(i) / 30)) }
    }

    @Test func aCodeShownAgainAfterTheWindowIsProcessed() {
        var f = RepeatFilter(window: 3)
        #expect(seen(&f, 1, t0))
        #expect(!seen(&f, 1, t0 + 2.9))
        #expect(seen(&f, 1, t0 + 6))
    }

    @Test func otherCodesAreIndependent() {
        var f = RepeatFilter(window: 3)
        #expect(seen(&f, 1, t0))
        #expect(seen(&f, 2, t0))
    }

    @Test func zeroWindowProcessesEverySighting() {
        var f = RepeatFilter(window: 0)
        #expect(seen(&f, 1, t0))
        #expect(seen(&f, 1, t0))
    }
}
