import DedicatedThreads
import Foundation
import Glibc

/// What the reader thread has seen of one attached page (session): page loads and document responses.
struct SessionState {
    /// The page's main frame id (equal to its target id).
    var mainFrame: String
    /// How many times the main frame fired its load event.
    var loadCount = 0
    /// Loader ids of main-frame documents that finished loading, newest last (only the last few are kept).
    var loadedLoaders: [String] = []
    /// HTTP status of the most recent main-frame document response.
    var lastStatus: Int?
    /// Messages of JavaScript dialogs (alert, confirm, prompt) that were accepted automatically.
    var dialogs: [String] = []
    /// Set when the page's renderer crashed.
    var crashed = false
}

/// The DevTools pipe: sends commands (matching answers by id) and keeps track of page events. A dedicated
/// thread reads fd 4; everything it shares with callers is guarded by `condition`.
final class CDPConnection: @unchecked Sendable {
    let processID: pid_t
    private let writeFD: Int32
    private let readFD: Int32
    private let logPath: String
    private let condition = NSCondition()
    private let writeLock = NSLock()
    // Guarded by `condition`:
    private var nextID = 1
    private var answers: [Int: [String: Any]] = [:]
    private var abandoned: Set<Int> = []
    private var sessions: [String: SessionState] = [:]
    private var exitReason: String?
    private var shutDown = false
    // Guarded by `writeLock`:
    private var writeFDClosed = false

    init(processID: pid_t, writeFD: Int32, readFD: Int32, logPath: String) {
        self.processID = processID
        self.writeFD = writeFD
        self.readFD = readFD
        self.logPath = logPath
        DedicatedThread.start(named: "Chromium DevTools reader") { [self] in readLoop() }
    }

    /// Sends a command and waits up to `timeout` for its answer; returns the answer's `result` object.
    @discardableResult
    func send(
        _ method: String, _ parameters: [String: Any] = [:], session: String? = nil, timeout: Duration
    ) throws -> [String: Any] {
        let deadline = Date(timeIntervalSinceNow: timeout.seconds)
        let id = try post(method, parameters, session: session, awaited: true)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let answer = answers.removeValue(forKey: id) {
                if let error = answer["error"] as? [String: Any] {
                    let message = error["message"] as? String ?? "\(error)"
                    let data = (error["data"] as? String).map { " (\($0))" } ?? ""
                    throw ChromiumError(
                        .protocolError,
                        "Chromium rejected \(method): \(message)\(data). Check the parameters; if the page was "
                            + "loading, wait for the load first (navigate, submit or waitFor).")
                }
                return answer["result"] as? [String: Any] ?? [:]
            }
            if let exitReason {
                throw exitedError(exitReason, waitingFor: "the answer to \(method)")
            }
            if let session, sessions[session]?.crashed == true {
                throw ChromiumError(.browserExited, "The page's renderer crashed while waiting for \(method).")
            }
            if Date() >= deadline {
                abandoned.insert(id)
                throw ChromiumError(
                    .timeout,
                    "Chromium did not answer \(method) within \(timeout); the browser or page seems hung (an "
                        + "endless JavaScript loop, a stopped process). Raise the timeout only if the page is "
                        + "legitimately slow.")
            }
            _ = condition.wait(until: deadline)
        }
    }

    /// Writes a command without waiting; returns its id. Answers to commands not `awaited` are dropped.
    @discardableResult
    func post(_ method: String, _ parameters: [String: Any], session: String?, awaited: Bool = false) throws -> Int {
        condition.lock()
        if let exitReason {
            condition.unlock()
            throw exitedError(exitReason, waitingFor: "sending \(method)")
        }
        let id = nextID
        nextID += 1
        if !awaited { abandoned.insert(id) }
        condition.unlock()
        var message: [String: Any] = ["id": id, "method": method, "params": parameters]
        if let session { message["sessionId"] = session }
        var bytes: [UInt8]
        do {
            bytes = [UInt8](try JSONSerialization.data(withJSONObject: message))
        } catch {
            throw ChromiumError(.io, "Could not encode the \(method) command as JSON: \(error).")
        }
        bytes.append(0)
        writeLock.lock()
        let failure = writeAll(bytes)
        writeLock.unlock()
        if let failure {
            // The browser is gone; give the reader thread a moment to learn how it ended, for a precise message.
            condition.lock()
            let deadline = Date(timeIntervalSinceNow: 3)
            while exitReason == nil && condition.wait(until: deadline) {}
            let reason = exitReason ?? failure
            condition.unlock()
            throw exitedError(reason, waitingFor: "sending \(method)")
        }
        return id
    }

    /// Writes all of `bytes` to the browser's fd 3; returns why it failed, or nil. Called with `writeLock` held.
    private func writeAll(_ bytes: [UInt8]) -> String? {
        if writeFDClosed { return "Chromium was closed by the test" }
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(writeFD, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return "the DevTools pipe broke (\(errnoText()))"
            }
            offset += written
        }
        return nil
    }

    /// Starts tracking events of a newly attached page.
    func register(session: String, mainFrame: String) {
        condition.lock()
        sessions[session] = SessionState(mainFrame: mainFrame)
        condition.unlock()
    }

    /// Stops tracking a closed page.
    func unregister(session: String) {
        condition.lock()
        sessions[session] = nil
        condition.unlock()
    }

    /// A snapshot of what has been seen of `session`.
    func state(of session: String) -> SessionState? {
        condition.lock()
        defer { condition.unlock() }
        return sessions[session]
    }

    /// Waits until `check` returns a value for the session's state, the browser dies, or `deadline` passes
    /// (then throws a timeout error that mentions `what`).
    func wait<T>(
        for session: String, until deadline: ContinuousClock.Instant, what: String, _ check: (SessionState) -> T?
    ) throws -> T {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let state = sessions[session], let value = check(state) { return value }
            if let exitReason { throw exitedError(exitReason, waitingFor: what) }
            if sessions[session]?.crashed == true {
                throw ChromiumError(.browserExited, "The page's renderer crashed while waiting for \(what).")
            }
            let remaining = ContinuousClock.now.duration(to: deadline)
            if remaining <= .zero {
                throw ChromiumError(.timeout, "Timed out waiting for \(what).")
            }
            _ = condition.wait(until: Date(timeIntervalSinceNow: remaining.seconds))
        }
    }

    /// Kills the browser's whole process group (renderers, GPU and utility processes too) and reaps the browser.
    /// Idempotent; safe while other threads are waiting (they get a `.browserExited` error). Only this method
    /// reaps the browser, so its pid, which is also the process group id, stays ours until the group is killed.
    func shutdown() {
        condition.lock()
        let first = !shutDown
        shutDown = true
        condition.unlock()
        guard first else { return }
        kill(-processID, SIGKILL)
        var status: Int32 = 0
        while waitpid(processID, &status, 0) < 0 && errno == EINTR {}
        writeLock.lock()
        Glibc.close(writeFD)
        writeFDClosed = true
        writeLock.unlock()
    }

    // MARK: Reader thread

    private func readLoop() {
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(readFD, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            var scanFrom = buffer.count
            buffer.append(contentsOf: chunk[0..<count])
            var messageStart = 0
            while let end = buffer[scanFrom...].firstIndex(of: 0) {
                handle(message: buffer[messageStart..<end])
                messageStart = end + 1
                scanFrom = messageStart
            }
            if messageStart > 0 { buffer.removeFirst(messageStart) }
        }
        Glibc.close(readFD)
        connectionLost()
    }

    private func handle(message bytes: ArraySlice<UInt8>) {
        guard let message = (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any] else { return }
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        if let id = message["id"] as? Int {
            if abandoned.remove(id) == nil { answers[id] = message }
            return
        }
        guard let method = message["method"] as? String, let session = message["sessionId"] as? String,
            var state = sessions[session]
        else { return }
        let parameters = message["params"] as? [String: Any] ?? [:]
        switch method {
        case "Page.lifecycleEvent":
            if parameters["name"] as? String == "load", parameters["frameId"] as? String == state.mainFrame {
                state.loadCount += 1
                state.loadedLoaders = state.loadedLoaders.suffix(15) + [parameters["loaderId"] as? String ?? ""]
            }
        case "Network.responseReceived":
            if parameters["type"] as? String == "Document", parameters["frameId"] as? String == state.mainFrame,
                let response = parameters["response"] as? [String: Any], let status = intValue(response["status"])
            {
                state.lastStatus = status
            }
        case "Page.javascriptDialogOpening":
            // An unanswered alert/confirm blocks the page; accept it like a user clicking OK, and remember it.
            state.dialogs.append(parameters["message"] as? String ?? "")
            condition.unlock()
            _ = try? post("Page.handleJavaScriptDialog", ["accept": true], session: session)
            condition.lock()
        case "Inspector.targetCrashed":
            state.crashed = true
        default:
            return
        }
        sessions[session] = state
    }

    private func connectionLost() {
        // The pipe closes when the browser exits; give it a moment to exit for a precise message. WNOWAIT leaves
        // the browser unreaped: until `shutdown` reaps it, its pid (our process group id) cannot be reused, so
        // `shutdown` can always kill the group's leftover renderer and utility processes safely.
        var reason = "Chromium closed the DevTools pipe"
        for _ in 0..<80 {
            condition.lock()
            let closedByTest = shutDown
            condition.unlock()
            if closedByTest {
                reason = "Chromium was closed by the test"
                break
            }
            var info = siginfo_t()
            let result = waitid(P_PID, id_t(processID), &info, WEXITED | WNOHANG | WNOWAIT)
            let childPID = info._sifields._sigchld.si_pid
            if result == 0 && childPID == processID {
                let status = info._sifields._sigchld.si_status
                reason =
                    info.si_code == CLD_EXITED
                    ? "Chromium exited with status \(status)" : "Chromium was killed by signal \(status)"
                break
            }
            if result < 0 && errno != EINTR { break }
            usleep(25_000)
        }
        condition.lock()
        exitReason = reason
        condition.broadcast()
        condition.unlock()
    }

    private func exitedError(_ reason: String, waitingFor what: String) -> ChromiumError {
        var message = "\(reason) while waiting for \(what)."
        if let log = try? String(contentsOfFile: logPath, encoding: .utf8) {
            let tail = log.split(separator: "\n").suffix(5).joined(separator: "\n")
            if !tail.isEmpty { message += " Last browser output:\n\(tail)" }
        }
        return ChromiumError(.browserExited, message)
    }
}

/// The integer in a JSON number, whichever way JSONSerialization represented it.
func intValue(_ value: Any?) -> Int? {
    switch value {
    case let value as Int: value
    case let value as Double: Int(value)
    case let value as NSNumber: value.intValue
    default: nil
    }
}

/// The text of the current `errno`.
func errnoText() -> String { String(cString: strerror(errno)) }

extension Duration {
    /// The duration in seconds, for Foundation APIs that take a `TimeInterval`.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
