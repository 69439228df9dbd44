import DedicatedThreads
import Foundation

/// Waiting for a child process from async code, on a thread of its own: Foundation's `waitUntilExit()` and
/// `readDataToEndOfFile()` block their thread, and on the cooperative pool (as many threads as cores, two on CI)
/// that thread is missing to every other test of the run for as long as the child takes to stop. Same names as
/// the blocking methods: in async code Swift picks these.
extension Process {
    /// Waits until the process has exited; the caller's task is suspended, not its thread.
    public func waitUntilExit() async {
        await DedicatedThread.run(named: "process-wait") { self.waitUntilExit() }
    }

    /// SIGTERM, and the process is waited for on a thread of its own: for a `defer`, which cannot await (the
    /// test is over and needs nothing more from the child).
    public func terminateWithoutWaiting() {
        guard isRunning else { return }
        terminate()
        DedicatedThread.start(named: "process-reaper") { self.waitUntilExit() }
    }
}

extension FileHandle {
    /// Everything until the end of the file or pipe (every writer closed it), read on a thread of its own.
    public func readDataToEndOfFile() async -> Data {
        await DedicatedThread.run(named: "read-to-end") { self.readDataToEndOfFile() }
    }
}
