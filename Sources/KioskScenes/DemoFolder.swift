import Foundation

/// Why a demo folder is not made: an operator's folder in the way, or a file system refusal.
public struct DemoFolderError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}

/// The folder `kiosk-demo` owns: made in a temporary sibling and renamed into place when complete;
/// replaced only if an earlier demo made it, so an operator's folder (and its kiosk.db) is never deleted.
public struct DemoFolder {
    /// The file that marks a folder as made by `kiosk-demo` (named after `kioskctl demo`, which made demos before
    /// it: their folders are still replaced).
    public static let markerName = ".kioskctl-demo"
    /// What a demo folder holds; a marked folder holding anything else is not replaced.
    static let demoEntries: Set<String> = [
        markerName, "kiosk.conf", "kiosk.db", "kiosk.db-wal", "kiosk.db-shm", "kiosk.db-journal", "images", "keys",
        "roster.csv", "manifest.json",
    ]
    /// The first line of the kiosk.conf of demos made before the marker existed.
    static let legacyHeader = "# Demo kiosk made by 'kioskctl demo'"

    public var path: String

    public init(_ path: String) {
        self.path = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    }

    /// Throws unless `path` is missing, an empty folder, or a demo folder made earlier.
    public static func checkReplaceable(_ path: String) throws(DemoFolderError) {
        let fm = FileManager.default
        var isFolder: ObjCBool = false
        let name = (path as NSString).lastPathComponent
        guard name != "." && name != ".." && name != "/" else {
            throw DemoFolderError(
                message:
                    "--dir \(path) names the current, parent or root folder: give the demo a folder of its own, such as .demo"
            )
        }
        guard fm.fileExists(atPath: path, isDirectory: &isFolder) else { return }
        guard isFolder.boolValue else {
            throw DemoFolderError(
                message: "\(path) exists and is not a folder: choose another --dir (kiosk-demo never deletes it)")
        }
        let entries: [String]
        do {
            entries = try fm.contentsOfDirectory(atPath: path)
        } catch {
            throw DemoFolderError(
                message: "\(path) exists but cannot be listed (\(error.localizedDescription)): choose another --dir")
        }
        if entries.isEmpty { return }
        let marked =
            entries.contains(markerName)
            || ((try? String(contentsOfFile: path + "/kiosk.conf", encoding: .utf8))?.hasPrefix(legacyHeader) ?? false)
            || isLegacyPartialDemo(path, entries: entries)
        guard marked else {
            throw DemoFolderError(
                message: """
                    \(path) exists and was not made by 'kiosk-demo' (no \(markerName) file in it): choose another \
                    --dir, or move the folder away yourself; kiosk-demo never deletes a folder it did not make
                    """)
        }
        let foreign = entries.filter { !demoEntries.contains($0) }.sorted()
        guard foreign.isEmpty else {
            throw DemoFolderError(
                message: """
                    \(path) is a demo folder but also holds \(foreign.joined(separator: ", ")), which kiosk-demo did not \
                    make: move those away first, or choose another --dir
                    """)
        }
    }

    /// What a demo made before the marker left when its generator failed: only `images/`, holding the
    /// `unreadable-*.png` it wrote as it gave up.
    static func isLegacyPartialDemo(_ path: String, entries: [String]) -> Bool {
        guard entries == ["images"], let images = try? FileManager.default.contentsOfDirectory(atPath: path + "/images")
        else {
            return false
        }
        return images.contains { $0.hasPrefix("unreadable-") }
    }

    /// Builds a new demo with `make` in a temporary folder beside `path`, then puts it in place of the old
    /// one. If `make` throws, the temporary folder is removed and `path` is left as it was.
    public func build<T>(_ make: (String) throws -> T) throws -> T {
        let fm = FileManager.default
        try Self.checkReplaceable(path)
        let parent = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        if !parent.isEmpty { try fm.createDirectory(atPath: parent, withIntermediateDirectories: true) }
        let prefix = (parent.isEmpty ? "" : parent + "/") + "." + name + "."
        let staging = prefix + "new-" + UUID().uuidString
        try fm.createDirectory(atPath: staging, withIntermediateDirectories: false)
        var stagingInPlace = false
        defer { if !stagingInPlace { try? fm.removeItem(atPath: staging) } }
        let result = try make(staging)
        guard
            fm.createFile(
                atPath: staging + "/" + Self.markerName,
                contents: Data("made by kiosk-demo; this folder is replaced by the next demo\n".utf8))
        else {
            throw DemoFolderError(message: "cannot write \(staging)/\(Self.markerName): is the folder writable?")
        }
        // Check again just before replacing: the folder may have changed while the demo was made.
        try Self.checkReplaceable(path)
        var old: String?
        if fm.fileExists(atPath: path) {
            let aside = prefix + "old-" + UUID().uuidString
            try fm.moveItem(atPath: path, toPath: aside)
            old = aside
        }
        do {
            try fm.moveItem(atPath: staging, toPath: path)
        } catch {
            if let old { try? fm.moveItem(atPath: old, toPath: path) }
            throw error
        }
        stagingInPlace = true
        if let old { try? fm.removeItem(atPath: old) }
        return result
    }
}
