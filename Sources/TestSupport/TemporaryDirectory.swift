import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A fresh folder under the system temporary directory, removed by `remove()`.
public struct TemporaryDirectory {
    public let path: String

    public init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-test-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    public func file(_ name: String) -> String { path + "/" + name }

    public func write(_ bytes: [UInt8], to name: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: file(name)))
    }

    public func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// A deterministic test picture: a diagonal gradient with a few hard edges.
public func testPattern(width: Int, height: Int) -> [UInt8] {
    (0..<(width * height)).map { i in
        let x = i % width
        let y = i / width
        return UInt8((x * 3 + y * 2) % 256 / (x % 16 < 8 ? 1 : 2))
    }
}

/// Things an operator may leave named like an image: a FIFO, a link to /dev/zero, a folder, a symbolic link loop,
/// a sparse 30 GB file, a header claiming 100000x100000 pixels.
extension TemporaryDirectory {
    public func makeFIFO(_ name: String) throws {
        guard mkfifo(file(name), 0o644) == 0 else { throw POSIXError(.init(rawValue: errno)!) }
    }

    public func makeLink(_ name: String, to target: String) throws {
        try FileManager.default.createSymbolicLink(atPath: file(name), withDestinationPath: target)
    }

    public func makeFolder(_ name: String) throws {
        try FileManager.default.createDirectory(atPath: file(name), withIntermediateDirectories: false)
    }

    /// A sparse file of `size` bytes (`ftruncate`): costs no disk.
    public func makeSparseFile(_ name: String, size: Int64) throws {
        let fd = open(file(name), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw POSIXError(.init(rawValue: errno)!) }
        defer { close(fd) }
        guard ftruncate(fd, off_t(size)) == 0 else { throw POSIXError(.init(rawValue: errno)!) }
    }
}
