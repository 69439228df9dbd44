import Foundation

/// The server benchmark's tables: a row per store, process count and executable, medians of the rounds.
struct ServerBenchTable {
    struct Sample {
        var checkIns: Int
        var requests: Int
        var ingest: ServerBenchRun.Cost
        var repeats: ServerBenchRun.Cost
        var heartbeats: ServerBenchRun.Cost
        var roster: ServerBenchRun.Cost?
    }

    var kiosks: Int
    var perKiosk: Int
    var guests: Int
    var labels: [String] = []
    var samples: [String: [Sample]] = [:]
    var notes: [String] = []

    mutating func add(_ label: String, _ sample: Sample) {
        if samples[label] == nil { labels.append(label) }
        samples[label, default: []].append(sample)
    }

    /// The median of `value` over a row's rounds.
    func median(_ label: String, _ value: (Sample) -> Double?) -> Double? {
        let values = (samples[label] ?? []).compactMap(value)
        return values.isEmpty ? nil : values.median
    }

    /// The baseline executable's row for `label` (same store and process count), if it ran.
    func baseline(of label: String) -> String? {
        guard !label.hasSuffix(", baseline"), let comma = label.range(of: ", ", options: .backwards) else { return nil }
        let other = label[..<comma.lowerBound] + ", baseline"
        return samples[String(other)] == nil ? nil : String(other)
    }

    func micro(_ seconds: Double, per count: Int) -> Double { seconds * 1e6 / Double(count) }

    func print() {
        let rounds = samples.values.map(\.count).max() ?? 0
        Swift.print(
            "## Server CPU per check-in: \(kiosks) devices uploading \(perKiosk) check-ins each at once, "
                + "batches of 50 (median of \(rounds))\n")
        func perCheckIn(_ s: Sample) -> Double { micro(s.ingest.server, per: s.checkIns) }
        Swift.print(
            table(
                [
                    "server", "check-ins/s (wall)", "server CPU µs/check-in", "PostgreSQL backends µs/check-in",
                    "repeat µs/check-in", "heartbeat µs/request", "ingest request / heartbeat", "vs baseline build",
                ],
                labels.map { label in
                    let cpu = median(label, perCheckIn) ?? .nan
                    let requestCost = median(label) { micro($0.ingest.server, per: $0.requests) } ?? .nan
                    let heartbeat = median(label) { micro($0.heartbeats.server, per: $0.requests) } ?? .nan
                    let ratio = baseline(of: label).flatMap { median($0, perCheckIn) }.map { f2(cpu / $0) } ?? ""
                    return [
                        label, String(format: "%.0f", median(label) { Double($0.checkIns) / $0.ingest.wall } ?? .nan),
                        String(format: "%.0f", cpu),
                        label.hasPrefix("PostgreSQL")
                            ? String(
                                format: "%.0f", median(label) { micro($0.ingest.backends, per: $0.checkIns) } ?? .nan)
                            : "",
                        String(format: "%.0f", median(label) { micro($0.repeats.server, per: $0.checkIns) } ?? .nan),
                        String(format: "%.0f", heartbeat), f2(requestCost / heartbeat), ratio,
                    ]
                }))
        Swift.print(
            "\nCPU: utime+stime of the checkin-server processes (/proc/PID/stat), over the phase; 'repeat': the same "
                + "batches again (stored answers); heartbeat: as many heartbeat requests as upload requests, the "
                + "HTTP and authentication floor measured in the same run.\n")
        let rosterLabels = labels.filter { label in samples[label]!.contains { $0.roster != nil } }
        guard !rosterLabels.isEmpty else { return }
        Swift.print("## First roster download: \(guests) guests in pages of 500, one client (median of \(rounds))\n")
        func rosterCPU(_ s: Sample) -> Double? { s.roster.map(\.server) }
        Swift.print(
            table(
                ["server", "seconds (wall)", "server CPU s", "µs per guest", "vs baseline build"],
                rosterLabels.map { label in
                    let cpu = median(label, rosterCPU) ?? .nan
                    let ratio = baseline(of: label).flatMap { median($0, rosterCPU) }.map { f2(cpu / $0) } ?? ""
                    return [
                        label, f2(median(label) { $0.roster?.wall } ?? .nan), f2(cpu),
                        String(format: "%.1f", cpu * 1e6 / Double(guests)), ratio,
                    ]
                }))
        Swift.print()
        for note in notes { Swift.print(note) }
    }
}
