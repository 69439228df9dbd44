import SystemCalls

/// KioskCapture's door to SystemCalls's one syscall helper: the call's failure becomes a `CaptureError` naming the
/// call (an ioctl's name, `open`, `mmap`, `poll`), what the kiosk was doing and the device.
///
/// Calls `body` again while it fails with `EINTR`; returns nil when it fails with `EAGAIN` (non-blocking device:
/// no frame yet). `failed` says whether a result means failure (-1 for most calls, `MAP_FAILED` for `mmap`).
func systemCall<Result>(
    _ call: String, _ action: String, device: String, failed: (Result) -> Bool, _ body: () -> Result
) throws(CaptureError) -> Result? {
    do {
        return try SystemCall.runUnlessWouldBlock(call, failed: failed, body)
    } catch {
        throw CaptureError(call: error.call, action: action, errno: error.errno.rawValue, devicePath: device)
    }
}

/// `systemCall` for the usual C convention: -1 means failure.
func systemCall(_ call: String, _ action: String, device: String, _ body: () -> Int32) throws(CaptureError) -> Int32? {
    try systemCall(call, action, device: device, failed: { $0 == -1 }, body)
}
