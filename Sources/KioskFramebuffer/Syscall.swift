import SystemCalls

/// KioskFramebuffer's door to SystemCalls's one syscall helper: retries `EINTR`; a result of -1 becomes a
/// `FramebufferError` naming `call` and `path`.
func syscall<T: FixedWidthInteger>(
    _ call: String,
    path: String,
    _ body: () -> T
) throws(FramebufferError) -> T {
    do {
        return try SystemCall.run(call, body)
    } catch {
        throw FramebufferError(path: path, reason: .system(call: error.call, errno: error.errno.rawValue))
    }
}
