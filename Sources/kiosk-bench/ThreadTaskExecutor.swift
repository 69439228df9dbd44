import Foundation

/// A task executor on one thread of its own. Each simulated kiosk of the ingest runs on one, as each real
/// kiosk has its own CPU: the store's blocking SQLite commits (fsync) then wait on that thread, not on
/// Swift's two cooperative threads, which the in-process server's handlers need.
final class ThreadTaskExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var stopped = false

    init(name: String) {
        let thread = Thread { [self] in loop() }
        thread.name = name
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.withLock {
            jobs.append(job)
            condition.signal()
        }
    }

    /// Lets the thread end once its queue is empty.
    func stop() {
        condition.withLock {
            stopped = true
            condition.signal()
        }
    }

    private func loop() {
        while true {
            let next: UnownedJob? = condition.withLock {
                while jobs.isEmpty && !stopped { condition.wait() }
                return jobs.isEmpty ? nil : jobs.removeFirst()
            }
            guard let next else { return }
            next.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
