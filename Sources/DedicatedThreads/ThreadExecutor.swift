import Foundation

/// A task executor on threads of its own. Tasks run here with `withTaskExecutorPreference(_:)` or
/// `Task(executorPreference:)`, and their child tasks too: an in-process server a test runs beside blocking
/// waits, a simulated kiosk whose SQLite commits wait for fsync as a real kiosk's do on its own CPU.
public final class ThreadExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var stopped = false

    public init(threads: Int = 1, name: String) {
        for index in 0..<threads {
            DedicatedThread.start(named: threads == 1 ? name : "\(name)-\(index)") { [self] in work() }
        }
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.withLock {
            jobs.append(job)
            condition.signal()
        }
    }

    /// Lets the threads end once the queue is empty.
    public func stop() {
        condition.withLock {
            stopped = true
            condition.broadcast()
        }
    }

    private func work() {
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
