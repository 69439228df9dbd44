import Foundation

/// Blocking work (a camera or keyboard read, a libcurl transfer, a wait on a child process or a browser) on a
/// thread of its own, never on Swift's cooperative pool: that pool has as many threads as cores, two on a small
/// kiosk or a CI machine, and every task of the process (an in-process server's requests included) waits while
/// one of them is blocked.
public enum DedicatedThread {
    /// Runs `body` on a new thread and resumes the caller with what it returned or threw. The caller's task is
    /// suspended meanwhile, not blocked; cancelling it does not stop `body` (give `body` its own way to stop).
    public static func run<T: Sendable, Failure: Error>(
        named name: String, stackSize: Int? = nil, _ body: @escaping @Sendable () throws(Failure) -> T
    ) async throws(Failure) -> T {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, Failure>, Never>) in
            start(named: name, stackSize: stackSize) {
                do throws(Failure) {
                    continuation.resume(returning: .success(try body()))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        return try result.get()
    }

    /// Starts `body` on a new thread and returns at once (a read loop that ends when its source does).
    public static func start(named name: String, stackSize: Int? = nil, _ body: @escaping @Sendable () -> Void) {
        let thread = Thread(block: body)
        thread.name = name
        if let stackSize { thread.stackSize = stackSize }
        thread.start()
    }
}
