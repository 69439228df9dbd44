import Foundation

/// Whether `condition` holds within `within`: looked at every `every`, and once more at the deadline. The bound
/// is for a loaded machine (the whole suite on 2 cores), never a measure: a test that measures time says so with
/// a clock of its own. The one way the tests wait for something to become true; `eventuallyBlocking` is the same
/// for a thread that may block.
public func eventually(
    within: Duration = .seconds(60), every: Duration = .milliseconds(20), _ condition: () async throws -> Bool
) async throws -> Bool {
    let deadline = ContinuousClock.now + within
    while ContinuousClock.now < deadline {
        if try await condition() { return true }
        try await Task.sleep(for: every)
    }
    return try await condition()
}

/// `eventually` for code on a thread of its own (a dedicated thread, the chaos run's), which sleeps between looks
/// and must never run on the concurrency pool.
public func eventuallyBlocking(
    within: Duration = .seconds(60), every: Duration = .milliseconds(20), _ condition: () throws -> Bool
) rethrows -> Bool {
    let deadline = ContinuousClock.now + within
    while ContinuousClock.now < deadline {
        if try condition() { return true }
        let (seconds, attoseconds) = every.components
        usleep(useconds_t(clamping: seconds * 1_000_000 + attoseconds / 1_000_000_000_000))
    }
    return try condition()
}
