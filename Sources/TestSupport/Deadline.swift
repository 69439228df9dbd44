import Synchronization

/// For a wait a test cannot bound otherwise: `body`'s result, or nil once `limit` has passed without one. The body
/// runs in a task of its own that is cancelled, and left behind, at the deadline: a body stuck in a wait that
/// ignores cancellation cannot hold the test (a task group would wait for it), so the test fails by name and says
/// where it was instead of hanging the run.
public func resultWithin<T: Sendable>(
    _ limit: Duration, _ body: @escaping @Sendable () async throws -> T
) async throws -> T? {
    let once = Once()
    let outcome: Result<T, any Error>? = await withCheckedContinuation { continuation in
        let settle: @Sendable (Result<T, any Error>?) -> Void = { value in
            if once.first() { continuation.resume(returning: value) }
        }
        let work = Task {
            let result = await Result(catching: body)
            settle(result)
        }
        Task {
            try? await Task.sleep(for: limit)
            settle(nil)
            work.cancel()
        }
    }
    return try outcome?.get()
}

/// True the first time it is asked, false ever after.
private final class Once: Sendable {
    private let asked = Mutex(false)

    func first() -> Bool {
        asked.withLock { asked in
            defer { asked = true }
            return !asked
        }
    }
}
