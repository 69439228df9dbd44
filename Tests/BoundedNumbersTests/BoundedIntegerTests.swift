import BoundedNumbers
import Testing

/// Numbers as outsiders write them, at and past the edges of their types.
struct BoundedIntegerTests {
    @Test func aNumberInItsRangeIsReadAndOneOutsideOrNotANumberIsNot() {
        #expect(BoundedInteger.parse("42", in: 1...100) == 42)
        #expect(BoundedInteger.parse("+42", in: 1...100) == 42)
        #expect(BoundedInteger.parse("0", in: 1...100) == nil)
        #expect(BoundedInteger.parse("101", in: 1...100) == nil)
        #expect(BoundedInteger.parse("-9223372036854775808", in: ClockDistance.seconds) == nil)
        #expect(BoundedInteger.parse("9223372036854775807", in: ClockDistance.seconds) == nil)
        #expect(BoundedInteger.parse("99999999999999999999999", in: ClockDistance.seconds) == nil)
        for text in ["", "-", "+", "1e3", "0x10", " 1", "1 ", "١٢", "--1", "1.5"] {
            #expect(BoundedInteger.parse(text, in: Int64.min...Int64.max) == nil, "\(text)")
        }
    }

    @Test func aNumberPastAnEndOfAnyLengthIsThatEnd() {
        #expect(BoundedInteger.clamped("7", to: 1...100_000) == 7)
        #expect(BoundedInteger.clamped("9223372036854775807", to: 1...100_000) == 100_000)
        #expect(BoundedInteger.clamped("18446744073709551616000", to: 1...100_000) == 100_000)
        #expect(BoundedInteger.clamped("-9223372036854775808", to: 1...100_000) == 1)
        #expect(BoundedInteger.clamped("-99999999999999999999999", to: 1...100_000) == 1)
        #expect(BoundedInteger.clamped("0", to: 1...100_000) == 1)
        #expect(BoundedInteger.clamped("-5", to: UInt32(0)...UInt32(9)) == 0)
        for text in ["", "-", "x", "1x", "--1", "+-1", "1.0", "١"] {
            #expect(BoundedInteger.clamped(text, to: 1...100_000) == nil, "\(text)")
        }
    }

    @Test func instantsAtTheEdgesOfInt64AreFarFromTheClockWithoutTrapping() {
        let now: Int64 = 1_764_633_600_000
        #expect(ClockDistance.isWithin(300_000, of: now, time: now - 300_000))
        #expect(ClockDistance.isWithin(300_000, of: now, time: now + 300_000))
        #expect(!ClockDistance.isWithin(300_000, of: now, time: now + 300_001))
        #expect(!ClockDistance.isWithin(300_000, of: now, time: .min))
        #expect(!ClockDistance.isWithin(300_000, of: now, time: .max))
        #expect(!ClockDistance.isWithin(.max, of: .max, time: .min))
        #expect(ClockDistance.offset(of: .min, from: now) == nil)
        #expect(ClockDistance.offset(of: .max, from: -1) == nil)
        #expect(ClockDistance.offset(of: 5, from: 7) == -2)
        // Two instants in the stated ranges always have a difference and a magnitude that fit.
        let range = ClockDistance.milliseconds
        #expect(ClockDistance.offset(of: range.lowerBound, from: range.upperBound) == -range.upperBound)
    }
}
