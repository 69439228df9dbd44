import DedicatedThreads
import Foundation

/// A real SMTP relay on loopback for the mail tests: `Tests/SMTP/relay.py` (aiosmtpd, Debian's
/// `python3-aiosmtpd`, installed by scripts/install-smtp.sh) run by `/usr/bin/python3` as a child process.
///
/// The relay binds a free port and prints it once it answers, so `start` returns a relay that is ready (no
/// sleeping, no race). It stores each message it accepts in `directory` with what Python's own MIME parser
/// found in it (`ReceivedMail`). It stops when `stop()` closes its standard input, or when the test process
/// ends and the pipe closes with it.
public final class TestSMTPRelay: @unchecked Sendable {
    /// How the relay talks.
    public struct Options: Sendable {
        /// PEM certificate and key: STARTTLS offered and required (or TLS from the first byte, `implicitTLS`).
        public var certificate: (certificate: String, key: String)?
        public var implicitTLS = false
        /// AUTH required (LOGIN or PLAIN, over TLS only) with this user name and password.
        public var credentials: (username: String, password: String)?
        /// The first N messages' data are answered 451 (greylisting).
        public var temporaryFailures = 0
        /// How long the relay takes with each message before storing it and answering (a real relay's queueing).
        public var dataDelayMilliseconds = 0
        /// Takes messages but never answers QUIT.
        public var silentQuit = false

        public init(
            certificate: (certificate: String, key: String)? = nil, implicitTLS: Bool = false,
            credentials: (username: String, password: String)? = nil, temporaryFailures: Int = 0,
            dataDelayMilliseconds: Int = 0, silentQuit: Bool = false
        ) {
            self.certificate = certificate
            self.implicitTLS = implicitTLS
            self.credentials = credentials
            self.temporaryFailures = temporaryFailures
            self.dataDelayMilliseconds = dataDelayMilliseconds
            self.silentQuit = silentQuit
        }
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// The loopback port the relay listens on (127.0.0.1).
    public let port: Int
    /// Where the relay stores what it received (a fresh temporary folder, removed by `stop()`).
    public let directory: String
    /// How long the relay took from launch to answering (Python start, aiosmtpd import, bind, self-check).
    public let startupTime: Duration

    private let process: Process
    private let input: Pipe

    /// The Python that sees Debian's packages (a pyenv `python3` on PATH would not find aiosmtpd).
    public static let python = "/usr/bin/python3"
    public static let script = ChildProcess.packageRoot + "/Tests/SMTP/relay.py"

    private init(port: Int, directory: String, startupTime: Duration, process: Process, input: Pipe) {
        self.port = port
        self.directory = directory
        self.startupTime = startupTime
        self.process = process
        self.input = input
    }

    /// Never waits: a relay dropped on the cooperative pool must not hold a thread of it.
    deinit {
        try? input.fileHandleForWriting.close()
        process.terminateWithoutWaiting()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// `start` from async code: the wait for the relay's port is on a thread of its own, not the cooperative
    /// pool's (Swift picks this in async code).
    public static func start(_ options: Options = Options(), timeout: Duration = .seconds(30)) async throws
        -> TestSMTPRelay
    {
        try await DedicatedThread.run(named: "smtp-relay-start") { try start(options, timeout: timeout) }
    }

    /// Starts a relay and returns once it answers on its port; throws with the relay's own error output if it
    /// did not within `timeout`.
    public static func start(_ options: Options = Options(), timeout: Duration = .seconds(30)) throws
        -> TestSMTPRelay
    {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "smtp-relay-" + UUID().uuidString
        ).path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var arguments = [script, "--dir", directory]
        if let (certificate, key) = options.certificate { arguments += ["--cert", certificate, "--key", key] }
        if options.implicitTLS { arguments.append("--implicit-tls") }
        if let (username, password) = options.credentials { arguments += ["--auth", "\(username):\(password)"] }
        if options.temporaryFailures > 0 { arguments += ["--tempfail-first", String(options.temporaryFailures)] }
        if options.silentQuit { arguments.append("--silent-quit") }
        if options.dataDelayMilliseconds > 0 {
            arguments += ["--data-delay-ms", String(options.dataDelayMilliseconds)]
        }

        let input = Pipe()
        let output = Pipe()
        let log = directory + "/relay.log"
        guard FileManager.default.createFile(atPath: log, contents: nil) else {
            throw Failure(description: "cannot create the SMTP relay's log \(log)")
        }
        let clock = ContinuousClock()
        let started = clock.now
        let process = try ChildProcess.start(
            python, arguments, input: input, output: output,
            errors: try FileHandle(forWritingTo: URL(fileURLWithPath: log)))

        // The first line on standard output is the port; read it on another thread so a hung start times out.
        let firstLine = FirstLine()
        DedicatedThread.start(named: "smtp-relay-port") { firstLine.read(from: output.fileHandleForReading) }
        let line = firstLine.wait(timeout: timeout)
        guard let line, let port = Int(line), port > 0 else {
            process.terminate()
            process.waitUntilExit()
            let errors = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            throw Failure(
                description: "the SMTP relay (\(python) \(script)) did not start within \(timeout) "
                    + "(is python3-aiosmtpd installed? scripts/install-smtp.sh): \(line ?? "no output") \(errors)")
        }
        return TestSMTPRelay(
            port: port, directory: directory, startupTime: clock.now - started, process: process, input: input)
    }

    /// The messages accepted so far, in the order they arrived.
    public func received() throws -> [ReceivedMail] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory)
            .filter { $0.hasSuffix(".json") }.sorted()
        return try names.map { name in
            let data = try Data(contentsOf: URL(fileURLWithPath: directory + "/" + name))
            var mail = try JSONDecoder().decode(ReceivedMail.self, from: data)
            let stem = String(name.dropLast(5))
            mail.raw = Array(try Data(contentsOf: URL(fileURLWithPath: directory + "/" + stem + ".eml")))
            for index in mail.images.indices {
                let file = directory + "/" + mail.images[index].file
                mail.images[index].data = Array(try Data(contentsOf: URL(fileURLWithPath: file)))
            }
            return mail
        }
    }

    /// Stops the relay and removes its folder. SIGTERM, not only the end of its standard input: a child process
    /// started by another test at the same moment may hold a copy of that pipe's writing end, and then the relay
    /// never saw the end, and `waitUntilExit` (which spins on Linux) held a thread of the cooperative pool for
    /// good. With two such relays in one run, both threads spun and the whole suite stalled (a CI run, 27 Nov).
    public func stop() {
        guard process.isRunning else { return }
        try? input.fileHandleForWriting.close()
        process.terminate()
        process.waitUntilExit()
        try? FileManager.default.removeItem(atPath: directory)
    }
}

/// The first line a child writes, handed from the reading thread to the waiting one.
private final class FirstLine: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var line: String?

    func read(from handle: FileHandle) {
        var bytes: [UInt8] = []
        while true {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            bytes += chunk
            if bytes.contains(UInt8(ascii: "\n")) { break }
        }
        let text = String(decoding: bytes, as: UTF8.self)
        line = text.split(separator: "\n").first.map { $0.trimmingCharacters(in: .whitespaces) }
        done.signal()
    }

    func wait(timeout: Duration) -> String? {
        let seconds = Double(timeout.components.seconds)
        guard done.wait(timeout: .now() + seconds) == .success else { return nil }
        return line
    }
}
