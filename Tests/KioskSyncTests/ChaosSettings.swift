import Foundation

/// How long and how hard a chaos run goes, from the environment:
/// - `CHAOS_SEED`: replay a run (every run prints its seed; without it each run takes a new one);
/// - `CHAOS_STEPS`: steps of chaos per store (default 120: a run for CI);
/// - `CHAOS_SOAK_MINUTES`: a soak instead, this wall time in all, split between the stores (scripts/chaos-soak.sh).
struct ChaosSettings: Sendable {
    var seed: UInt64
    /// Steps of chaos per store, when `duration` is nil.
    var steps: Int
    /// The chaos phase's wall time per store, in seconds (a soak).
    var duration: TimeInterval?
    var doors = ["North", "South", "East"]
    /// Guests cancelled (and refreshed) before the doors open.
    var cancellations = 3
    /// Guests with e-mail addresses imported just before the cancellations (the server busy issuing their passes).
    var lateRegistrations = 200
    /// Walk-ins added during the run, taken in turn by the doors.
    var walkIns: Int
    /// Guests added to the test roster (300), so that a soak does not run out of guests never scanned.
    var extraGuests: Int

    /// One seed for the whole test run (both stores), new each run unless CHAOS_SEED is set.
    static let seed: UInt64 = {
        if let text = ProcessInfo.processInfo.environment["CHAOS_SEED"], let seed = UInt64(text) { return seed }
        return UInt64.random(in: 1...999_999_999)
    }()

    static func fromEnvironment(stores: Int) -> ChaosSettings {
        let environment = ProcessInfo.processInfo.environment
        let steps = environment["CHAOS_STEPS"].flatMap { Int($0) } ?? 120
        if let text = environment["CHAOS_SOAK_MINUTES"], let minutes = Double(text), minutes > 0 {
            let seconds = minutes * 60 / Double(stores)
            // A soak draws about 14 steps a second on this machine, 58 % of them a guest never scanned before:
            // 8 guests a second ran out before the end of a 15-minute run (26 Nov). 20 leaves room.
            return ChaosSettings(
                seed: seed, steps: .max, duration: seconds, walkIns: max(3, Int(seconds / 60)),
                extraGuests: Int(seconds * 20))
        }
        return ChaosSettings(seed: seed, steps: steps, duration: nil, walkIns: 3, extraGuests: max(0, steps - 250))
    }
}
