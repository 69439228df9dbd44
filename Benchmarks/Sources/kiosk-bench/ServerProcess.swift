import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Real `checkin-server serve` processes of the server benchmark, and the CPU time the kernel counts for them.
final class ServerProcesses: Sendable {
    let urls: [String]
    private let processes: [Process]

    /// Starts `count` processes of `executable` on `store` (`--database FILE` or `--postgres URL` arguments),
    /// with pass issuance and the offline watch off (their background work is not what is measured).
    init(executable: String, store: [String], count: Int) async throws {
        var processes: [Process] = []
        var urls: [String] = []
        for _ in 0..<count {
            let port = try BenchServer.freePort()
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments =
                ["serve"] + store + [
                    "--host", "127.0.0.1", "--port", "\(port)", "--issuance-workers", "0", "--watch-interval", "0",
                    "--pass-dir", NSTemporaryDirectory() + "kiosk-bench-passes",
                ]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            process.standardInput = FileHandle.nullDevice
            try process.run()
            processes.append(process)
            urls.append("http://127.0.0.1:\(port)")
        }
        self.processes = processes
        self.urls = urls
        for url in urls { try await BenchServer.waitUntilListening(url) }
    }

    func stop() {
        for process in processes {
            process.terminate()
            process.waitUntilExit()
        }
    }

    /// User plus system CPU seconds of all the processes so far (`/proc/PID/stat`, every thread, ended ones too).
    func cpuSeconds() -> Double {
        processes.map { ProcessCPU.seconds(pid: $0.processIdentifier) ?? 0 }.reduce(0, +)
    }
}

enum ProcessCPU {
    static let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))

    /// utime + stime of `/proc/PID/stat` (fields 14 and 15), in seconds; nil when the process is gone.
    static func seconds(pid: Int32) -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // After the command's closing parenthesis: field 3 (state) is at 0, so utime (14) at 11, stime (15) at 12.
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / ticksPerSecond
    }
}
