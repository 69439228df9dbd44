import Foundation

/// Threads of its own for the tasks of servers that tests run in their own process (a live Hummingbird
/// application, a webhook receiver). Swift's cooperative pool has as many threads as cores; a test waiting for
/// a child process or a browser blocks one, and a server whose requests wait for the pool then answers late
/// or never (a read timeout). Tasks run here with `withTaskExecutorPreference(DedicatedExecutor.shared)` or
/// `Task(executorPreference:)`, and their child tasks too.
public final class DedicatedExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []

    /// Four threads for every in-process server of the test run.
    public static let shared = DedicatedExecutor(threads: 4, name: "test-servers")

    public init(threads: Int, name: String) {
        for index in 0..<threads {
            let thread = Thread { self.work() }
            thread.name = "\(name)-\(index)"
            thread.start()
        }
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    private func work() {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
