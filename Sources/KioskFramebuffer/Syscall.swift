#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Runs a system call, retrying on `EINTR`; a result of -1 becomes a `FramebufferError` naming `call` and `path`.
func syscall<T: FixedWidthInteger>(
    _ call: String,
    path: String,
    _ body: () -> T
) throws(FramebufferError) -> T {
    while true {
        let result = body()
        if result != -1 { return result }
        let code = errno
        if code == EINTR { continue }
        throw FramebufferError(path: path, reason: .system(call: call, errno: code))
    }
}
