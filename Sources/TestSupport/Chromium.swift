import Foundation
import Glibc

/// A headless Chromium started for one test, driven over the Chrome DevTools Protocol on a pipe
/// (`--remote-debugging-pipe`: Chromium reads NUL-terminated JSON commands on fd 3 and writes answers and events
/// on fd 4). Every wait has a timeout, so a hung or crashed browser fails the test instead of hanging it.
///
/// Sendable: all methods may be called from any task or thread. `close()` (also run by `deinit`) kills the
/// browser and removes its temporary profile.
public final class Chromium: Sendable {
    /// The browser's process id (also its process group id); tests use it to simulate a crash or a hang.
    public let processID: pid_t
    /// Chromium's product string, for example `Chrome/156.0.8078.79`.
    public let version: String
    /// The timeout used by every command and wait that is not given one explicitly.
    public let defaultTimeout: Duration

    let connection: CDPConnection
    private let temporaryDirectory: String

    /// The Chromium binary to start: `$CHROMIUM_PATH` if set, else the first existing well-known path. Debian's
    /// `/usr/bin/chromium` is a shell wrapper around `/usr/lib/chromium/chromium`; the real binary is preferred.
    public static var executablePath: String? {
        var candidates = [
            "/usr/lib/chromium/chromium", "/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome",
        ]
        if let path = ProcessInfo.processInfo.environment["CHROMIUM_PATH"], !path.isEmpty {
            candidates = [path]
        }
        return candidates.first { access($0, X_OK) == 0 }
    }

    /// Whether a Chromium binary is installed; tests use it as `.enabled(if: Chromium.isAvailable)`.
    public static var isAvailable: Bool { executablePath != nil }

    /// The flags every browser gets: headless, no sandbox (needed as root and in most containers), no GPU, no
    /// background traffic, certificate errors ignored (the test server's self-made CA), English UI, 1280x800.
    static let standardArguments = [
        "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--remote-debugging-pipe",
        "--ignore-certificate-errors", "--lang=en-US", "--window-size=1280,800", "--hide-scrollbars",
        "--no-first-run", "--no-default-browser-check", "--disable-background-networking", "--disable-extensions",
        "--disable-component-update", "--disable-sync", "--password-store=basic", "--mute-audio",
    ]

    private init(
        processID: pid_t, version: String, defaultTimeout: Duration, connection: CDPConnection,
        temporaryDirectory: String
    ) {
        self.processID = processID
        self.version = version
        self.defaultTimeout = defaultTimeout
        self.connection = connection
        self.temporaryDirectory = temporaryDirectory
    }

    deinit { close() }

    /// Starts a headless Chromium with a fresh temporary profile and waits until it answers on the DevTools pipe.
    /// `extraArguments` are appended to the standard flags; `timeout` becomes `defaultTimeout`.
    public static func launch(extraArguments: [String] = [], timeout: Duration = .seconds(15)) throws -> Chromium {
        guard let executable = executablePath else {
            throw ChromiumError(
                .launch,
                "No Chromium binary found (looked at $CHROMIUM_PATH, /usr/lib/chromium/chromium, /usr/bin/chromium). "
                    + "Run install-chromium.sh or set CHROMIUM_PATH.")
        }
        // A write to the pipe of a dead browser must fail with EPIPE, not kill the test process.
        signal(SIGPIPE, SIG_IGN)
        let temporary = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("chromium-test-XXXXXX")
        var template = Array(temporary.path.utf8CString)
        guard let created = mkdtemp(&template) else {
            throw ChromiumError(.launch, "Could not create a temporary profile directory: \(errnoText()).")
        }
        let directory = String(cString: created)
        let logPath = directory + "/chromium-output.log"
        let arguments =
            [executable] + standardArguments + ["--user-data-dir=\(directory)/profile"] + extraArguments
            + ["about:blank"]
        let spawned: (pid: pid_t, toBrowser: Int32, fromBrowser: Int32)
        do {
            spawned = try spawn(executable, arguments: arguments, logPath: logPath)
        } catch {
            try? FileManager.default.removeItem(atPath: directory)
            throw error
        }
        let connection = CDPConnection(
            processID: spawned.pid, writeFD: spawned.toBrowser, readFD: spawned.fromBrowser, logPath: logPath)
        let version: String
        do {
            let answer = try connection.send("Browser.getVersion", timeout: timeout)
            version = answer["product"] as? String ?? "unknown"
        } catch {
            connection.shutdown()
            try? FileManager.default.removeItem(atPath: directory)
            throw ChromiumError(
                .launch, "Chromium (\(executable)) did not start answering on the DevTools pipe: \(error)")
        }
        return Chromium(
            processID: spawned.pid, version: version, defaultTimeout: timeout, connection: connection,
            temporaryDirectory: directory)
    }

    /// Opens a new tab and attaches to it. With `isolated`, the tab gets its own browser context (separate
    /// cookies and storage, like an incognito window), so two users can be logged in at the same time.
    public func newPage(isolated: Bool = false) throws -> BrowserPage {
        var contextID: String?
        var parameters: [String: Any] = ["url": "about:blank"]
        if isolated {
            let context = try connection.send("Target.createBrowserContext", timeout: defaultTimeout)
            contextID = context["browserContextId"] as? String
            parameters["browserContextId"] = contextID
        }
        let target = try connection.send("Target.createTarget", parameters, timeout: defaultTimeout)
        guard let targetID = target["targetId"] as? String else {
            throw ChromiumError(.protocolError, "Target.createTarget answered without a targetId: \(target).")
        }
        let attached = try connection.send(
            "Target.attachToTarget", ["targetId": targetID, "flatten": true], timeout: defaultTimeout)
        guard let sessionID = attached["sessionId"] as? String else {
            throw ChromiumError(.protocolError, "Target.attachToTarget answered without a sessionId: \(attached).")
        }
        connection.register(session: sessionID, mainFrame: targetID)
        for method in ["Page.enable", "Network.enable"] {
            try connection.send(method, session: sessionID, timeout: defaultTimeout)
        }
        try connection.send(
            "Page.setLifecycleEventsEnabled", ["enabled": true], session: sessionID, timeout: defaultTimeout)
        return BrowserPage(browser: self, targetID: targetID, sessionID: sessionID, browserContextID: contextID)
    }

    /// Kills the browser (its whole process group), reaps it and removes the temporary profile. Idempotent.
    public func close() {
        connection.shutdown()
        // Killed child processes may still be finishing a write into the profile; retry briefly.
        for _ in 0..<5 {
            do {
                try FileManager.default.removeItem(atPath: temporaryDirectory)
                return
            } catch {
                if !FileManager.default.fileExists(atPath: temporaryDirectory) { return }
                usleep(50_000)
            }
        }
    }

    /// Starts `executable` with our pipe ends as its fds 3 (commands in) and 4 (answers out), stdin from
    /// /dev/null, stdout and stderr into `logPath`, in a new process group so `close()` can kill all of it.
    private static func spawn(_ executable: String, arguments: [String], logPath: String) throws -> (
        pid: pid_t, toBrowser: Int32, fromBrowser: Int32
    ) {
        // Both pipes are close-on-exec (so other children spawned by parallel tests never inherit them) and moved
        // to fds >= 10, so the dup2 onto 3 and 4 below never has a source that is 3 or 4 itself.
        let commands = try makePipe()  // we write [1], the browser reads [0] as fd 3
        let answers = try makePipe()  // the browser writes [1] as fd 4, we read [0]
        var fileActions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&fileActions)
        defer { posix_spawn_file_actions_destroy(&fileActions) }
        posix_spawn_file_actions_addopen(&fileActions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&fileActions, 1, logPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&fileActions, 1, 2)
        posix_spawn_file_actions_adddup2(&fileActions, commands.read, 3)
        posix_spawn_file_actions_adddup2(&fileActions, answers.write, 4)
        // Nothing else: another test's pipe that is not close-on-exec (Foundation's `Pipe`, such as the SMTP
        // relay's standard input) would otherwise stay open in the browser, and that child never see its EOF.
        // glibc 2.34+; the Swift module hides it (_GNU_SOURCE).
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32
        if let closeFrom = dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addclosefrom_np") {
            _ = unsafeBitCast(closeFrom, to: CloseFrom.self)(&fileActions, 5)
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        posix_spawnattr_setpgroup(&attributes, 0)
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaultSignals = sigset_t()
        sigemptyset(&defaultSignals)
        sigaddset(&defaultSignals, SIGPIPE)  // we ignore SIGPIPE; ignored signals would be inherited
        posix_spawnattr_setsigdefault(&attributes, &defaultSignals)

        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &fileActions, &attributes, argv, environ)
        Glibc.close(commands.read)
        Glibc.close(answers.write)
        guard result == 0 else {
            Glibc.close(commands.write)
            Glibc.close(answers.read)
            throw ChromiumError(
                .launch, "posix_spawn of \(executable) failed: \(String(cString: strerror(result))).")
        }
        return (pid, commands.write, answers.read)
    }

    /// A close-on-exec pipe whose two fds are both >= 10.
    private static func makePipe() throws -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        // pipe2 sets O_CLOEXEC atomically, so a process spawned by another thread at this moment cannot inherit
        // the pipe (and keep it open after the browser dies). Glibc's Swift module hides it (_GNU_SOURCE).
        typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>?, Int32) -> Int32
        let pipe2 = dlsym(dlopen(nil, RTLD_NOW), "pipe2").map { unsafeBitCast($0, to: Pipe2.self) }
        let result = pipe2.map { $0(&fds, O_CLOEXEC) } ?? pipe(&fds)
        guard result == 0 else {
            throw ChromiumError(.launch, "Could not create a pipe for the DevTools connection: \(errnoText()).")
        }
        let read = fcntl(fds[0], F_DUPFD_CLOEXEC, 10)
        let write = fcntl(fds[1], F_DUPFD_CLOEXEC, 10)
        Glibc.close(fds[0])
        Glibc.close(fds[1])
        guard read >= 0, write >= 0 else {
            if read >= 0 { Glibc.close(read) }
            if write >= 0 { Glibc.close(write) }
            throw ChromiumError(.launch, "Could not move the DevTools pipe to a high fd: \(errnoText()).")
        }
        return (read, write)
    }
}
