import DedicatedThreads
import Foundation

/// Everything a child process writes to a pipe, collected on a thread of its own (not the cooperative pool's),
/// with a wait for what the test expects to see: a test reacts to what the child did, not to a fixed sleep.
public final class PipeText: @unchecked Sendable {
    private let condition = NSCondition()
    private var data = Data()
    private var ended = false

    public init(_ pipe: Pipe) {
        let handle = pipe.fileHandleForReading
        DedicatedThread.start(named: "pipe-reader") { [self] in
            while true {
                let chunk = handle.availableData
                condition.lock()
                if chunk.isEmpty { ended = true } else { data.append(chunk) }
                condition.broadcast()
                condition.unlock()
                if chunk.isEmpty { return }
            }
        }
    }

    /// What has been written so far.
    public var text: String {
        condition.lock()
        defer { condition.unlock() }
        return String(decoding: data, as: UTF8.self)
    }

    /// Waits until `satisfied` holds for the text so far, the pipe ends, or `timeout` passes; whether it held.
    public func wait(timeout: TimeInterval, until satisfied: (String) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            let text = String(decoding: data, as: UTF8.self)
            if satisfied(text) { return true }
            if ended || !condition.wait(until: deadline) { return satisfied(String(decoding: data, as: UTF8.self)) }
        }
    }

    /// The whole text, once the pipe has ended (every writer closed it: the child exited).
    public func whole() -> String {
        condition.lock()
        defer { condition.unlock() }
        while !ended { condition.wait() }
        return String(decoding: data, as: UTF8.self)
    }
}
