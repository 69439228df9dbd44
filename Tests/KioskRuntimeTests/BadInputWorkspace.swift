import Foundation
import GRDB
@_spi(Testing) import KioskStore
import TestSupport

/// The folder a catalogue case runs in (`{dir}`): a copy of a demo-like door made once per test run, the case
/// file, and whatever the case's setup actions add.
struct BadInputWorkspace {
    /// A failure of the harness itself (not of the case), said as a sentence.
    struct Problem: Error, CustomStringConvertible {
        var description: String
    }

    /// Holds `{dir}` and, beside it, the command's captured output.
    let root: String
    /// `{dir}`.
    let dir: String
    let placeholders: [String: String]
    /// The command's working folder (`{dir}` unless a `cwd:` action says otherwise).
    var workingDirectory: String
    /// Files that must have the same bytes after the command (`kept:`), with their bytes before it.
    var keptFiles: [(path: String, bytes: Data)] = []
    /// Connections holding a write lock while the command runs (`lock:`).
    var locks: [DatabaseQueue] = []

    /// Copies the template and the case file into a fresh folder.
    init(for c: BadInputCase) async throws {
        let fm = FileManager.default
        let template = try await Self.template.value().get()
        // A name without words in it: key words must not match the folder's path ("folder", "kiosk"...).
        root = NSTemporaryDirectory() + "kbi-" + UUID().uuidString.prefix(8).lowercased()
        dir = root + "/dir"
        try fm.createDirectory(atPath: root, withIntermediateDirectories: true)
        try fm.copyItem(atPath: template, toPath: dir)
        workingDirectory = dir
        var values = [
            "{bin}": ChildProcess.productsFolder, "{dir}": dir, "{testimages}": Fixtures.testImages,
            "{repo}": Fixtures.packageRoot,
        ]
        if let file = c.file {
            var source = Self.replace(file, values)
            if !source.hasPrefix("/") { source = BadInputCatalogue.casesFolder + "/" + source }
            let name = (source as NSString).lastPathComponent
            guard fm.fileExists(atPath: source) else {
                throw Problem(description: "the case file \(source) does not exist")
            }
            try fm.copyItem(atPath: source, toPath: dir + "/" + name)
            try fm.createDirectory(atPath: dir + "/case", withIntermediateDirectories: true)
            try fm.copyItem(atPath: source, toPath: dir + "/case/" + name)
            values["{case}"] = dir + "/" + name
            values["{casename}"] = name
            values["{casefolder}"] = dir + "/case"
        }
        placeholders = values
    }

    /// `text` with every placeholder of this case replaced.
    func expand(_ text: String) -> String { Self.replace(text, placeholders) }

    static func replace(_ text: String, _ values: [String: String]) -> String {
        guard text.contains("{") else { return text }
        var result = text
        for (key, value) in values { result = result.replacingOccurrences(of: key, with: value) }
        return result
    }

    /// Removes the folder (kept when the case failed, for whoever looks into it).
    func remove() { try? FileManager.default.removeItem(atPath: root) }
}

extension BadInputWorkspace {
    static let templatePath = NSTemporaryDirectory() + "kbi-template-" + UUID().uuidString.prefix(8).lowercased()

    /// The demo-like door every case starts from, made once per test run with the real binaries:
    /// `Tests/BadInput/template/kiosk.conf`, the test event's public key and roster, a `kiosk.db` imported by
    /// `kioskctl roster import`, `images/` holding one valid pass, and a second issuer key pair (`keys/issuer-9`)
    /// for `kioskctl issue`.
    static let template = AsyncOnce<Result<String, Problem>> {
        let fm = FileManager.default
        let t = templatePath
        atexit { try? FileManager.default.removeItem(atPath: BadInputWorkspace.templatePath) }
        do {
            try fm.createDirectory(atPath: t + "/keys", withIntermediateDirectories: true)
            try fm.createDirectory(atPath: t + "/images", withIntermediateDirectories: true)
            try fm.copyItem(atPath: BadInputCatalogue.folder + "/template/kiosk.conf", toPath: t + "/kiosk.conf")
            try fm.copyItem(
                atPath: Fixtures.testImages + "/keys/issuer-1.pub.pem", toPath: t + "/keys/issuer-1.pub.pem")
            try fm.copyItem(atPath: Fixtures.testImages + "/roster.csv", toPath: t + "/roster.csv")
            try fm.copyItem(atPath: Fixtures.testImages + "/001-valid.png", toPath: t + "/images/001-valid.png")
            for command in [
                ["roster", "import", "--config", t + "/kiosk.conf", "--csv", t + "/roster.csv"],
                ["keygen", "--out", t + "/keys/issuer-9", "--key-id", "9"],
            ] {
                let (status, out, err) = try await Fixtures.run("kioskctl", command, currentDirectory: t)
                guard status == 0 else {
                    return .failure(
                        Problem(
                            description: "making the template: kioskctl \(command.joined(separator: " ")) "
                                + "exited \(status): \(out)\(err)"))
                }
            }
            return .success(t)
        } catch {
            return .failure(Problem(description: "making the template in \(t): \(error)"))
        }
    }
}

extension BadInputWorkspace {
    /// Runs the case's setup actions, in order. Paths are made absolute against `{dir}`; missing parent folders
    /// are created.
    ///
    /// | action                  | does                                                                  |
    /// |-------------------------|-----------------------------------------------------------------------|
    /// | `mkdir:PATH`            | a folder                                                              |
    /// | `mkfifo:PATH`           | a named pipe (nobody ever writes to it)                               |
    /// | `symlink:TARGET:PATH`   | a symbolic link PATH -> TARGET (TARGET as written)                    |
    /// | `sparse:SIZE:PATH`      | a sparse file of SIZE bytes (suffix K, M, G); also shrinks a file     |
    /// | `copy:SOURCE:PATH`      | a copy of a file (SOURCE relative to cases/); PATH ending in / copies into that folder |
    /// | `rm:PATH`               | removes a file of the template                                        |
    /// | `sql:SCRIPT:DATABASE`   | runs the SQL file SCRIPT on DATABASE                                  |
    /// | `lock:DATABASE`         | holds an exclusive write transaction on DATABASE while the command runs |
    /// | `cwd:PATH`              | the command runs in PATH instead of `{dir}`                           |
    /// | `kept:PATH`             | after the command, PATH must still hold the same bytes                |
    mutating func perform(_ action: String) async throws {
        let fm = FileManager.default
        let parts = expand(action).split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).map(
            String.init)
        func path(_ p: String) throws -> String {
            let full = p.hasPrefix("/") ? p : dir + "/" + p
            let folder = full.hasSuffix("/") ? full : (full as NSString).deletingLastPathComponent
            try fm.createDirectory(atPath: folder, withIntermediateDirectories: true)
            return full
        }
        func arguments(_ n: Int) throws -> [String] {
            guard parts.count == n + 1 else {
                throw Problem(
                    description: "setup action '\(action)' needs \(n) argument\(n == 1 ? "" : "s") after '\(parts[0]):'"
                )
            }
            return Array(parts.dropFirst())
        }
        switch parts[0] {
        case "mkdir":
            try fm.createDirectory(atPath: try path(try arguments(1)[0]), withIntermediateDirectories: true)
        case "mkfifo":
            let p = try path(try arguments(1)[0])
            guard mkfifo(p, 0o644) == 0 else { throw Problem(description: "mkfifo \(p): errno \(errno)") }
        case "symlink":
            let a = try arguments(2)
            try fm.createSymbolicLink(atPath: try path(a[1]), withDestinationPath: a[0])
        case "sparse", "truncate":
            let a = try arguments(2)
            guard let size = Self.byteCount(a[0]) else {
                throw Problem(description: "'\(a[0])' is not a size such as 30G")
            }
            let p = try path(a[1])
            if !fm.fileExists(atPath: p) { _ = fm.createFile(atPath: p, contents: nil) }
            guard truncate(p, off_t(size)) == 0 else { throw Problem(description: "truncate \(p): errno \(errno)") }
        case "copy":
            let a = try arguments(2)
            let source = a[0].hasPrefix("/") ? a[0] : BadInputCatalogue.casesFolder + "/" + a[0]
            var destination = try path(a[1])
            if a[1].hasSuffix("/") { destination += (source as NSString).lastPathComponent }
            try fm.copyItem(atPath: source, toPath: destination)
        case "rm":
            try fm.removeItem(atPath: try path(try arguments(1)[0]))
        case "sql":
            let a = try arguments(2)
            let script = a[0].hasPrefix("/") ? a[0] : BadInputCatalogue.casesFolder + "/" + a[0]
            let connection = try DatabaseQueue(path: try sqliteLocation(try path(a[1])))
            let sql = try String(contentsOfFile: script, encoding: .utf8)
            try await connection.writeWithoutTransaction { try $0.execute(sql: sql) }
        case "lock":
            var configuration = Configuration()
            configuration.allowsUnsafeTransactions = true  // the open transaction is the point
            let connection = try DatabaseQueue(
                path: try sqliteLocation(try path(try arguments(1)[0])), configuration: configuration)
            try await connection.writeWithoutTransaction { try $0.execute(sql: "BEGIN EXCLUSIVE") }
            locks.append(connection)
        case "cwd":
            workingDirectory = try path(try arguments(1)[0])
            try fm.createDirectory(atPath: workingDirectory, withIntermediateDirectories: true)
        case "kept":
            let p = try path(try arguments(1)[0])
            guard let bytes = fm.contents(atPath: p) else {
                throw Problem(description: "kept: \(p) does not exist before the command")
            }
            keptFiles.append((p, bytes))
        default:
            throw Problem(description: "unknown setup action '\(parts[0])' in '\(action)'")
        }
    }

    /// Where GRDB opens `database`: through the encrypting VFS under the template's key (`key/kiosk-db.key`)
    /// when it is an encrypted kiosk database, else the file itself (a new or a plain one).
    func sqliteLocation(_ database: String) throws -> String {
        let keyFile = dir + "/key/kiosk-db.key"
        guard let head = FileManager.default.contents(atPath: database)?.prefix(16), head.count == 16,
            head != Data("SQLite format 3\0".utf8), let key = FileManager.default.contents(atPath: keyFile)
        else { return database }
        return try DatabaseKey(bytes: Array(key)).sqliteURI(forDatabaseAt: database)
    }

    /// Releases the locks; returns what a `kept:` file lost.
    mutating func finish() -> [String] {
        for connection in locks { try? connection.writeWithoutTransaction { try $0.execute(sql: "ROLLBACK") } }
        locks.removeAll()
        return keptFiles.compactMap { kept in
            guard let now = FileManager.default.contents(atPath: kept.path) else { return "\(kept.path) was removed" }
            return now == kept.bytes ? nil : "\(kept.path) was changed"
        }
    }

    /// "30G" -> 30 * 2^30.
    static func byteCount(_ text: String) -> Int64? {
        let units: [Character: Int64] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
        if let unit = text.last.flatMap({ units[$0] }) { return Int64(text.dropLast()).map { $0 * unit } }
        return Int64(text)
    }
}
