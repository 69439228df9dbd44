import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The disk's own price of durability, measured beside the admits in the same run: a 4 KiB write and
/// `fdatasync` into a file of the database's folder. An admit commits with `synchronous=FULL`, so its time
/// follows this one (it varies many times over with the machine's other disk traffic).
final class FsyncProbe {
    private let fd: Int32
    private let page = [UInt8](repeating: 0x5A, count: 4096)

    init(folder: String) {
        fd = open(folder + "/fsync-probe", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    }

    deinit { close(fd) }

    /// Milliseconds of one durable 4 KiB write. The corresponding C functions are `pwrite` and `fdatasync`.
    func measure() -> Double {
        Stopwatch.milliseconds {
            _ = page.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
            _ = fdatasync(fd)
        }
    }
}
