import SystemPackage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Files and folders that only their owner may read (databases, keys, pass images): created 0600 and 0700 whatever
/// the process's umask, and tightened when an older version left them readable by others.
public enum PrivateFile {
    /// Creates `path` and any missing parent folders, each 0700; a folder that exists keeps its mode.
    /// The corresponding C function is `mkdir`.
    public static func createDirectory(_ path: String) throws(SystemCallError) {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for part in path.split(separator: "/") {
            prefix += part
            if mkdir(prefix, 0o700) == -1, errno != EEXIST {
                throw SystemCallError(call: "mkdir \(prefix)", errno: Errno(rawValue: errno))
            }
            prefix += "/"
        }
    }

    /// Takes group and other permissions off `path` if it has any (0644 becomes 0600, 0755 becomes 0700);
    /// nothing when it does not exist. The corresponding C functions are `stat` and `chmod`.
    public static func restrict(_ path: String) throws(SystemCallError) {
        var info = stat()
        if stat(path, &info) == -1 {
            if errno == ENOENT { return }
            throw SystemCallError(call: "stat \(path)", errno: Errno(rawValue: errno))
        }
        let mode = info.st_mode & 0o7777
        guard mode & 0o077 != 0 else { return }
        _ = try SystemCall.run("chmod \(path)") { chmod(path, mode & 0o700) }
    }

    /// The permission bits of `path` (0o600...), nil when it does not exist.
    public static func permissions(_ path: String) -> UInt32? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return UInt32(info.st_mode & 0o7777)
    }

    /// Writes `bytes` to `path`, 0600, replacing what was there only once the new file is complete on disk
    /// (written aside, flushed, renamed, the folder flushed). The corresponding C functions are `open`, `write`,
    /// `fsync`, `rename`.
    public static func replace(_ bytes: [UInt8], path: String) throws(SystemCallError) {
        let temporary = try writeAside(bytes, path: path)
        if rename(temporary, path) == -1 {
            let code = errno
            unlink(temporary)
            throw SystemCallError(call: "rename \(temporary)", errno: Errno(rawValue: code))
        }
        syncFolder(of: path)
    }

    /// Writes `bytes` to `path`, 0600, only if no file has that name (complete or not: another process making
    /// the same file at the same time wins or loses whole). Returns false when the file was there.
    /// The corresponding C functions are `open`, `write`, `fsync`, `link`.
    public static func createExclusively(_ bytes: [UInt8], path: String) throws(SystemCallError) -> Bool {
        let temporary = try writeAside(bytes, path: path)
        defer { unlink(temporary) }
        if link(temporary, path) == -1 {
            if errno == EEXIST { return false }
            throw SystemCallError(call: "link \(path)", errno: Errno(rawValue: errno))
        }
        syncFolder(of: path)
        return true
    }

    static func writeAside(_ bytes: [UInt8], path: String) throws(SystemCallError) -> String {
        let random = (0..<4).map { _ in String(UInt32.random(in: 0...UInt32.max), radix: 36) }.joined()
        let temporary = path + ".part-" + random
        let fd = try SystemCall.system("open \(temporary)") {
            try FileDescriptor.open(
                FilePath(temporary), .writeOnly, options: [.create, .exclusiveCreate, .closeOnExec],
                permissions: [.ownerReadWrite])
        }
        do {
            // The umask cannot widen 0600, but fchmod makes the mode independent of it altogether.
            _ = try SystemCall.run("fchmod \(temporary)") { fchmod(fd.rawValue, 0o600) }
            _ = try SystemCall.system("write \(temporary)") { try fd.writeAll(bytes) }
            _ = try SystemCall.run("fsync \(temporary)") { fsync(fd.rawValue) }
        } catch {
            try? fd.close()
            unlink(temporary)
            throw error
        }
        try SystemCall.system("close \(temporary)") { try fd.close() }
        return temporary
    }

    /// Flushes the folder's entries, so that a rename or link survives a crash.
    static func syncFolder(of path: String) {
        let folder = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        let fd = open(folder.isEmpty ? (path.hasPrefix("/") ? "/" : ".") : folder, O_RDONLY | O_DIRECTORY)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        close(fd)
    }
}
