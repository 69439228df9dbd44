import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The tests' temporary folders, all inside one folder of this test process that is removed when the process
/// exits: a run leaves no databases, keys or passes behind in the system's temporary folder (before, every run
/// left some 500 folders there). A run that was killed leaves its folder; the next run removes it, as it removes
/// the folder of any test process that is no longer running.
public enum TestFolders {
    /// This process's folder, made (and the folders of dead test processes removed) on first use.
    public static let root: String = {
        let parent = NSTemporaryDirectory()
        removeFoldersOfEndedRuns(in: parent)
        let path = parent + prefix + String(getpid())
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: TestFolders.root) }
        return path
    }()

    /// A new empty folder, named `name` and a unique suffix, inside `root`.
    public static func make(_ name: String) -> String {
        let path = root + "/" + name + "-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static let prefix = "qr-checkin-tests."

    /// Removes the folders of test processes that no longer run (killed before their exit could remove them).
    static func removeFoldersOfEndedRuns(in parent: String) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: parent)) ?? []
        for name in names where name.hasPrefix(prefix) {
            guard let pid = pid_t(name.dropFirst(prefix.count)), pid != getpid() else { continue }
            // Signal 0 tests whether the process exists; ESRCH: it does not.
            if kill(pid, 0) != 0 && errno == ESRCH { try? FileManager.default.removeItem(atPath: parent + name) }
        }
    }
}
