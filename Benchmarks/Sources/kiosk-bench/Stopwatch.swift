import Foundation

/// Monotonic timing and percentiles for the benchmark tables.
enum Stopwatch {
    /// Milliseconds `body` takes.
    static func milliseconds(_ body: () throws -> Void) rethrows -> Double {
        let start = ContinuousClock.now
        try body()
        let d = ContinuousClock.now - start
        return Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15
    }

    /// Seconds an asynchronous `body` takes.
    static func seconds(_ body: () async throws -> Void) async rethrows -> Double {
        let start = ContinuousClock.now
        try await body()
        return seconds(ContinuousClock.now - start)
    }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }
}

extension Array where Element == Double {
    func percentile(_ p: Double) -> Double {
        guard !isEmpty else { return .nan }
        let s = sorted()
        return s[Swift.min(s.count - 1, Int((Double(s.count - 1) * p).rounded()))]
    }
    var median: Double { percentile(0.5) }
}

/// Formats a markdown table with right-aligned numbers.
func table(_ header: [String], _ rows: [[String]]) -> String {
    var widths = header.map(\.count)
    for r in rows { for (i, c) in r.enumerated() { widths[i] = Swift.max(widths[i], c.count) } }
    func line(_ cells: [String]) -> String {
        "| "
            + cells.enumerated().map { i, c in
                i == 0
                    ? c.padding(toLength: widths[i], withPad: " ", startingAt: 0)
                    : String(repeating: " ", count: widths[i] - c.count) + c
            }.joined(separator: " | ") + " |"
    }
    return
        ([
            line(header),
            "|"
                + widths.enumerated().map { i, w in
                    i == 0 ? String(repeating: "-", count: w + 2) : String(repeating: "-", count: w + 1) + ":"
                }.joined(separator: "|") + "|",
        ]
        + rows.map(line)).joined(separator: "\n")
}

func f2(_ x: Double) -> String { String(format: "%.2f", x) }
func f3(_ x: Double) -> String { String(format: "%.3f", x) }
