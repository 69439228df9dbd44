import SystemPackage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one place where the kiosk calls into C and reads errno, like swift-nio's `syscall(blocking:where:)`.
///
/// Every failure names the call; `EINTR` is retried; `EAGAIN` is "would block" (nil) where the caller asks for it.
/// Not for `close`: on Linux the descriptor is gone even when close reports EINTR, so retrying could close a
/// descriptor another thread just opened.
public enum SystemCall {
    /// Runs `body`, again while it fails with `EINTR`. `failed` says whether a result means failure (-1 for most
    /// calls, `MAP_FAILED` for `mmap`); errno is then read and thrown as a `SystemCallError` naming `call`.
    /// `EAGAIN` (and `EWOULDBLOCK`) are errors too: use `runUnlessWouldBlock` where they mean "not yet".
    public static func run<Result>(
        _ call: String, failed: (Result) -> Bool, _ body: () -> Result
    ) throws(SystemCallError) -> Result {
        while true {
            let result = body()
            guard failed(result) else { return result }
            let code = errno
            if code == EINTR { continue }
            throw SystemCallError(call: call, errno: Errno(rawValue: code))
        }
    }

    /// `run` for the usual C convention: -1 means failure.
    public static func run<Result: FixedWidthInteger>(
        _ call: String, _ body: () -> Result
    ) throws(SystemCallError) -> Result {
        try run(call, failed: { $0 == -1 }, body)
    }

    /// `run` for a non-blocking descriptor: nil when the call fails with `EAGAIN`/`EWOULDBLOCK` (no frame yet,
    /// nothing to read yet).
    public static func runUnlessWouldBlock<Result>(
        _ call: String, failed: (Result) -> Bool, _ body: () -> Result
    ) throws(SystemCallError) -> Result? {
        do {
            return try run(call, failed: failed, body)
        } catch  where error.errno == .wouldBlock || error.errno == .resourceTemporarilyUnavailable {
            return nil
        }
    }

    /// `runUnlessWouldBlock` for the usual C convention: -1 means failure.
    public static func runUnlessWouldBlock<Result: FixedWidthInteger>(
        _ call: String, _ body: () -> Result
    ) throws(SystemCallError) -> Result? {
        try runUnlessWouldBlock(call, failed: { $0 == -1 }, body)
    }

    /// Runs a swift-system call (`FileDescriptor.open`, `read`, `stat`...), which retries `EINTR` itself, and
    /// names it in the error: swift-system throws a bare `Errno`.
    public static func system<Result>(_ call: String, _ body: () throws -> Result) throws(SystemCallError) -> Result {
        do {
            return try body()
        } catch let code as Errno {
            throw SystemCallError(call: call, errno: code)
        } catch {
            throw SystemCallError(call: call, errno: .ioError)
        }
    }
}
