/// Whole numbers read from outside the process (a header, a query string, a form, a peer's message, a file),
/// parsed into the range their reader does arithmetic in. Swift traps on overflow: a header's
/// `-9223372036854775808` subtracted from the clock, or a page number of `Int.max` multiplied by a page's length,
/// kills the process. So a number from outside reaches arithmetic only through here, already in its range.
public enum BoundedInteger {
    /// The decimal integer `text` (an optional sign, then digits, nothing else) when it lies within `range`; nil
    /// when `text` is not such an integer or lies outside `range` (however many digits it has).
    public static func parse<T: FixedWidthInteger>(_ text: some StringProtocol, in range: ClosedRange<T>) -> T? {
        guard let value = T(text, radix: 10), range.contains(value) else { return nil }
        return value
    }

    /// The decimal integer `text` brought into `range`: a number past either end, of any length, is that end (a
    /// page past the last is the last page); nil when `text` is not a decimal integer.
    public static func clamped<T: FixedWidthInteger>(_ text: some StringProtocol, to range: ClosedRange<T>) -> T? {
        let negative = text.first == "-"
        let digits = text.drop(while: { $0 == "-" || $0 == "+" })
        guard text.count - digits.count <= 1, !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber })
        else { return nil }
        guard let value = T(text, radix: 10) else {
            // Too many digits for T: past one end or the other.
            return negative ? range.lowerBound : range.upperBound
        }
        return min(max(value, range.lowerBound), range.upperBound)
    }
}
