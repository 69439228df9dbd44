import Foundation
import TestSupport

/// Runs one catalogue command as an operator would: the real `kiosk` or `kioskctl` of this build, no shell, standard
/// input closed, output to files, with a time limit and a memory limit (a binary that reads /dev/zero into memory
/// must not take the build machine down with it).
struct BadInputCommand {
    struct Outcome {
        /// The exit status, or the signal number when `signal` is set.
        var status: Int32
        var signal: Bool
        var timedOut: Bool
        var stdout: String
        var stderr: String
        var seconds: Double

        /// "exit 64", "killed by signal 6 (SIGABRT)", "timed out after 20 s (killed)".
        var summary: String {
            if timedOut { return "timed out after \(Int(BadInputCommand.timeLimit.components.seconds)) s (killed)" }
            if signal {
                return "killed by signal \(status)\(BadInputCommand.signalNames[status].map { " (\($0))" } ?? "")"
            }
            return "exit \(status)"
        }
    }

    static let timeLimit: Duration = .seconds(20)
    /// Address space of a command, in bytes: far above what a replay of a few images needs.
    static let memoryLimit = 1 << 30
    static let signalNames: [Int32: String] = [
        4: "SIGILL", 5: "SIGTRAP", 6: "SIGABRT", 7: "SIGBUS", 9: "SIGKILL",
        11: "SIGSEGV", 24: "SIGXCPU",
    ]
    static let prlimit = ["/usr/bin/prlimit", "/bin/prlimit"].first { FileManager.default.isExecutableFile(atPath: $0) }

    var arguments: [String]
    var workingDirectory: String
    /// Where the output files go (not `{dir}`, so they never show up in a listing the command makes).
    var outputFolder: String

    /// The command line as it would be typed, for messages.
    var display: String {
        "cd \(workingDirectory) && "
            + arguments.map { $0.contains(" ") || $0.isEmpty ? "'\($0)'" : $0 }.joined(separator: " ")
    }

    func run() async throws -> Outcome {
        let outPath = outputFolder + "/stdout"
        let errPath = outputFolder + "/stderr"
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        let out = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        let err = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        defer {
            try? out.close()
            try? err.close()
        }

        let program = Self.prlimit ?? arguments[0]
        let programArguments =
            Self.prlimit == nil
            ? Array(arguments.dropFirst()) : ["--as=\(Self.memoryLimit)", "--cpu=60", "--"] + arguments
        let start = ContinuousClock.now
        // Nothing here blocks a thread while the command runs: a blocked wait on a shared pool (two threads on a
        // two-core machine) would keep the time limit's own timer from firing.
        let killer = Killer()
        // The child as it exited: set by its exit handler before the wait below resumes.
        let ended = ProcessBox()
        try await withCheckedThrowingContinuation { (exited: CheckedContinuation<Void, any Error>) in
            let p: Process
            do {
                // A crash still prints its "Fatal error: ..." line; the backtrace would bury the rest of the output.
                p = try ChildProcess.start(
                    program, programArguments, in: workingDirectory, environment: ["SWIFT_BACKTRACE": "enable=no"],
                    output: out, errors: err,
                    onExit: { process in
                        ended.process = process
                        exited.resume()
                    })
            } catch {
                exited.resume(throwing: error)
                return
            }
            let pid = p.processIdentifier
            killer.task = Task {
                try await Task.sleep(for: Self.timeLimit)
                kill(pid, SIGKILL)
            }
        }
        killer.task?.cancel()
        let elapsed = start.duration(to: .now)
        let p = ended.process!
        let signal = p.terminationReason == .uncaughtSignal
        return Outcome(
            status: p.terminationStatus, signal: signal,
            timedOut: signal && p.terminationStatus == SIGKILL && elapsed >= Self.timeLimit,
            stdout: Self.text(of: outPath), stderr: Self.text(of: errPath),
            seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }

    /// The first megabyte of an output file, as text.
    static func text(of path: String) -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else { return "" }
        defer { try? handle.close() }
        return String(decoding: (try? handle.read(upToCount: 1 << 20)) ?? Data(), as: UTF8.self)
    }
}

/// The task that kills a command at its time limit, set once the command has started.
private final class Killer: @unchecked Sendable {
    var task: Task<Void, any Error>?
}

private final class ProcessBox: @unchecked Sendable {
    var process: Process?
}
