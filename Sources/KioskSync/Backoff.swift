/// Jittered exponential backoff: after the n-th failure in a row, wait a random time between half of and the
/// whole of `base * 2^(n-1)`, at most `maximum` ("equal jitter"), so kiosks that lost the server together do
/// not come back together.
public struct Backoff: Sendable {
    public var base: Duration
    public var maximum: Duration

    public init(base: Duration = .seconds(1), maximum: Duration = .seconds(60)) {
        self.base = base
        self.maximum = maximum
    }

    /// The wait after `failures` failures in a row (1 or more); `unit` in 0...1 is the random part.
    public func delay(afterFailures failures: Int, unit: Double) -> Duration {
        let exponent = min(max(failures - 1, 0), 30)
        let ceiling = min(base * (1 << exponent), maximum)
        return ceiling / 2 + ceiling / 2 * min(max(unit, 0), 1)
    }

    /// The wait after `failures` failures with a random jitter.
    public func delay(afterFailures failures: Int) -> Duration {
        delay(afterFailures: failures, unit: Double.random(in: 0...1))
    }
}
