/// File sizes as an operator reads them.
public enum ByteCount {
    /// "512 bytes", "3.2 MB", "30.0 GB"; exact powers of two of a MiB or more as "64 MiB" (how limits are set).
    public static func text(_ bytes: Int64) -> String {
        let mebibyte: Int64 = 1 << 20
        if bytes >= mebibyte, bytes % mebibyte == 0, (bytes / mebibyte) & (bytes / mebibyte - 1) == 0 {
            return "\(bytes / mebibyte) MiB"
        }
        let units: [(Int64, String)] = [
            (1_000_000_000_000, "TB"), (1_000_000_000, "GB"), (1_000_000, "MB"), (1_000, "kB"),
        ]
        for (size, unit) in units where bytes >= size {
            let tenths = (bytes * 10 + size / 2) / size
            return "\(tenths / 10).\(tenths % 10) \(unit) (\(bytes) bytes)"
        }
        return bytes == 1 ? "1 byte" : "\(bytes) bytes"
    }
}
