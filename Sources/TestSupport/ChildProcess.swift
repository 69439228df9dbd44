import Foundation
import Subprocess
import Synchronization

#if canImport(System)
    import System
#else
    import SystemPackage
#endif

/// The package's executables and shell scripts run as real processes by the tests: each call waits for the
/// process and returns its exit status with what it wrote.
public enum ChildProcess {
    /// The package's root folder (where Package.swift is).
    public static let packageRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// The folder of the build's products (the test bundle's folder, holding `kiosk`, `kioskctl` and
    /// `checkin-server`).
    public static let productsFolder: String = {
        var url = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        while url.path != "/" && !FileManager.default.fileExists(atPath: url.appendingPathComponent("kioskctl").path) {
            url.deleteLastPathComponent()
        }
        return url.path
    }()

    /// Runs the product `executable` with `arguments` in `folder`, standard input empty; returns the exit
    /// status, standard output and standard error. Awaits the process without holding a thread.
    @discardableResult
    public static func run(_ executable: String, _ arguments: [String], in folder: String) async throws -> (
        status: Int32, out: String, err: String
    ) {
        try await run(path: productsFolder + "/" + executable, arguments, in: folder)
    }

    /// Runs the program at `path`, as `run` does. The child writes its standard output and error into two
    /// unlinked temporary files, read once it has exited: it never waits on a reader, so it runs at full speed
    /// however busy the cooperative pool is (with pipes, every read of swift-subprocess needed a thread of that
    /// pool, and a child stalled for as long as other tests kept both threads busy). swift-subprocess awaits the
    /// exit from its own monitor thread. A status is the exit code, or 128 plus the signal that ended the process.
    @discardableResult
    public static func run(path: String, _ arguments: [String], in folder: String) async throws -> (
        status: Int32, out: String, err: String
    ) {
        let outFile = try CapturedOutput()
        let errFile = try CapturedOutput()
        let result = try await Subprocess.run(
            .path(FilePath(path)), arguments: Arguments(arguments), workingDirectory: FilePath(folder),
            input: .none, output: .fileDescriptor(outFile.descriptor, closeAfterSpawningProcess: false),
            error: .fileDescriptor(errFile.descriptor, closeAfterSpawningProcess: false))
        return (
            status(result.terminationStatus), try outFile.text(limit: outputLimit), try errFile.text(limit: outputLimit)
        )
    }

    /// Runs `script` with /bin/sh in `folder`; returns the exit status and standard output and error together.
    public static func shell(_ script: String, in folder: String) async throws -> (status: Int32, out: String) {
        let r = try await run(path: "/bin/sh", ["-c", "exec 2>&1\n" + script], in: folder)
        return (r.status, r.out)
    }

    /// For code that runs on a thread of its own (the chaos harness): `run`, waited for by blocking that thread
    /// (never call it from a task of the cooperative pool).
    @discardableResult
    public static func runBlocking(_ executable: String, _ arguments: [String], in folder: String) throws -> (
        status: Int32, out: String, err: String
    ) {
        try blocking { try await run(executable, arguments, in: folder) }
    }

    /// Runs `body` in a task and blocks the calling thread until it is done: for a thread of its own only.
    public static func blocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
        let done = DispatchSemaphore(value: 0)
        let outcome = Mutex<Result<T, any Error>?>(nil)
        Task {
            let result = await Result(catching: body)
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        return try outcome.withLock { $0! }.get()
    }

    /// More than any of the package's programs writes in a test (a child writing more fails the run, said).
    static let outputLimit = 64 << 20

    static func status(_ status: TerminationStatus) -> Int32 {
        switch status {
        case .exited(let code): code
        case .signaled(let signal): 128 + signal
        }
    }
}

extension Result where Failure == any Error {
    init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}

/// An unlinked temporary file that a child process writes one of its outputs into: nothing else can open it, and
/// it is gone when closed.
final class CapturedOutput {
    let descriptor: FileDescriptor

    init() throws {
        var template = Array((NSTemporaryDirectory() + "/child-output-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw ChildProcessError.noTemporaryFile(errno: errno) }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        descriptor = FileDescriptor(rawValue: fd)
    }

    deinit { try? descriptor.close() }

    /// What the child wrote, as UTF-8 text (invalid sequences repaired); more than `limit` bytes is an error.
    func text(limit: Int) throws -> String {
        let size = try descriptor.seek(offset: 0, from: .end)
        guard size <= Int64(limit) else { throw ChildProcessError.outputTooLong(bytes: size, limit: limit) }
        _ = try descriptor.seek(offset: 0, from: .start)
        var bytes = [UInt8](repeating: 0, count: Int(size))
        var read = 0
        while read < bytes.count {
            let n = try bytes.withUnsafeMutableBytes {
                try descriptor.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[read...]))
            }
            if n == 0 { break }
            read += n
        }
        return String(decoding: bytes[..<read], as: UTF8.self)
    }
}

/// Why a child process's run could not be reported.
public enum ChildProcessError: Error, CustomStringConvertible {
    case noTemporaryFile(errno: Int32)
    case outputTooLong(bytes: Int64, limit: Int)

    public var description: String {
        switch self {
        case .noTemporaryFile(let code):
            "could not make a temporary file for a child's output (errno \(code)): check that TMPDIR is writable"
        case .outputTooLong(let bytes, let limit):
            "a child process wrote \(bytes) bytes, more than the \(limit) a test may read"
        }
    }
}
