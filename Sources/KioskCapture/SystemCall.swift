#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The one place where KioskCapture calls into C and reads errno.
///
/// Calls `body` again while it fails with `EINTR`; returns nil when it fails with `EAGAIN` (non-blocking device:
/// no frame yet); throws a `CaptureError` naming `call` for any other failure. `failed` says whether a result
/// means failure (-1 for most calls, `MAP_FAILED` for `mmap`).
///
/// Not for `close`: on Linux the descriptor is gone even when close reports EINTR, so retrying could close a
/// descriptor another thread just opened.
func systemCall<Result>(
    _ call: String, _ action: String, device: String, failed: (Result) -> Bool, _ body: () -> Result
) throws(CaptureError) -> Result? {
    while true {
        let result = body()
        guard failed(result) else { return result }
        let code = errno
        switch code {
        case EINTR: continue
        case EAGAIN: return nil
        default: throw CaptureError(call: call, action: action, errno: code, devicePath: device)
        }
    }
}

/// `systemCall` for the usual C convention: -1 means failure.
func systemCall(_ call: String, _ action: String, device: String, _ body: () -> Int32) throws(CaptureError) -> Int32? {
    try systemCall(call, action, device: device, failed: { $0 == -1 }, body)
}
