import Foundation

/// Slows down password guessing: after 5 failed sign-ins for one address in 15 minutes, or 20 from one client,
/// further attempts are refused (429) until the oldest failure is 15 minutes old, before any password is
/// checked. Kept in the process: with several server processes each counts its own.
actor SignInThrottle {
    static let window: TimeInterval = 15 * 60
    static let perAccount = 5
    static let perClient = 20
    /// Keys remembered at most (older ones go first): a flood of made-up addresses cannot grow it without end.
    static let capacity = 10_000

    private var failures: [String: [Date]] = [:]

    /// Whether an attempt for `email` from `client` is refused at `now`.
    func refuses(email: String, client: String?, now: Date) -> Bool {
        count("account:" + email, now) >= Self.perAccount
            || client.map { count("client:" + $0, now) >= Self.perClient } ?? false
    }

    func failed(email: String, client: String?, now: Date) {
        note("account:" + email, now)
        if let client { note("client:" + client, now) }
    }

    func succeeded(email: String) { failures["account:" + email] = nil }

    private func count(_ key: String, _ now: Date) -> Int {
        failures[key]?.filter { now.timeIntervalSince($0) < Self.window }.count ?? 0
    }

    private func note(_ key: String, _ now: Date) {
        var times = (failures[key] ?? []).filter { now.timeIntervalSince($0) < Self.window }
        times.append(now)
        failures[key] = times
        if failures.count > Self.capacity {
            let stale = failures.filter { $0.value.allSatisfy { now.timeIntervalSince($0) >= Self.window } }.keys
            for key in stale { failures[key] = nil }
            while failures.count > Self.capacity,
                let oldest = failures.min(by: { ($0.value.last ?? .distantPast) < ($1.value.last ?? .distantPast) })
            {
                failures[oldest.key] = nil
            }
        }
    }
}
