import Cryptography
internal import GRDBSQLite
import Glibc
import Synchronization

/// An SQLite VFS over the default (unix) one that keeps the kiosk database and its WAL encrypted at rest, a page
/// at a time, with AES-256-GCM (`PageCipher`), each page bound to its database and its place (`EncryptedFile`).
/// SQLite above it sees plain pages, so the schema, the queries and the indexes are unchanged; below it the file
/// holds only ciphertext (and the pages' database id, and the WAL's frame headers: page numbers, salts and
/// checksums).
///
/// A database is opened through it with the URI `file:PATH?vfs=kiosk-aes256gcm&kioskkey=N`, where `N` names a
/// key registered here: the key itself never appears in a file name or an error message. Temporary files,
/// which the store keeps in memory (`temp_store=MEMORY`), and the rollback journal, used once when a new file
/// turns to WAL (it then holds at most the schema page), go to the unix VFS unchanged.
enum EncryptingVFS {
    static let name = "kiosk-aes256gcm"
    /// Our part of each `sqlite3_file`: SQLite's method pointer and the `EncryptedFile`; the real file follows.
    static let header = 16

    private static let keys = Mutex<(next: Int, keys: [Int: [UInt8]])>((1, [:]))
    private static let registration = Mutex<Bool>(false)
    /// The unix VFS, set once by `register()`.
    nonisolated(unsafe) static var real: UnsafeMutablePointer<sqlite3_vfs>!

    /// Registers the VFS with SQLite once per process.
    static func register() {
        registration.withLock { registered in
            guard !registered else { return }
            registered = true
            real = sqlite3_vfs_find(nil)
            let vfs = UnsafeMutablePointer<sqlite3_vfs>.allocate(capacity: 1)
            vfs.initialize(to: real.pointee)
            vfs.pointee.iVersion = min(real.pointee.iVersion, 3)
            vfs.pointee.szOsFile = Int32(header) + real.pointee.szOsFile
            vfs.pointee.pNext = nil
            vfs.pointee.zName = UnsafePointer(strdup(name))
            vfs.pointee.xOpen = { _, name, file, flags, outFlags in
                EncryptingVFS.open(name, file!, flags, outFlags)
            }
            _ = sqlite3_vfs_register(vfs, 0)
        }
    }

    /// Keeps a page key for the files opened with `kioskkey=` the returned number, until `forget`.
    static func remember(pageKey: [UInt8]) -> Int {
        keys.withLock { state in
            let id = state.next
            state.next += 1
            state.keys[id] = pageKey
            return id
        }
    }

    static func forget(_ id: Int) { _ = keys.withLock { $0.keys.removeValue(forKey: id) } }

    /// The URI that opens `path` through this VFS under key `id`.
    static func uri(path: String, key id: Int) -> String {
        var escaped = ""
        for character in path.unicodeScalars {
            switch character {
            case "%": escaped += "%25"
            case "?": escaped += "%3f"
            case "#": escaped += "%23"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return "file:\(escaped)?vfs=\(name)&kioskkey=\(id)"
    }

    private static func open(
        _ name: UnsafePointer<CChar>?, _ file: UnsafeMutablePointer<sqlite3_file>, _ flags: Int32,
        _ outFlags: UnsafeMutablePointer<Int32>?
    ) -> Int32 {
        let kind: EncryptedFile.Kind
        if flags & SQLITE_OPEN_MAIN_DB != 0 {
            kind = .database
        } else if flags & SQLITE_OPEN_WAL != 0 {
            kind = .wal
        } else {
            // Not a page file: the unix VFS's file takes our whole slot.
            return real.pointee.xOpen(real, name, file, flags, outFlags)
        }
        file.pointee.pMethods = nil
        guard let name, let parameter = sqlite3_uri_parameter(name, "kioskkey"),
            let id = Int(String(cString: parameter)),
            let pageKey = keys.withLock({ $0.keys[id] }), let cipher = try? PageCipher(key: pageKey)
        else { return SQLITE_CANTOPEN }
        let slot = UnsafeMutableRawPointer(file)
        let realFile = (slot + header).assumingMemoryBound(to: sqlite3_file.self)
        let code = real.pointee.xOpen(real, name, realFile, flags, outFlags)
        guard code == SQLITE_OK else {
            if realFile.pointee.pMethods != nil { _ = realFile.pointee.pMethods.pointee.xClose(realFile) }
            return code
        }
        let identity: DatabaseIdentity
        switch kind {
        case .database:
            identity = DatabaseIdentity(database: realFile, path: String(cString: name))
            DatabaseIdentity.register(identity, name: name)
        case .wal:
            guard let found = DatabaseIdentity.lookUp(walName: name) else {
                _ = realFile.pointee.pMethods.pointee.xClose(realFile)
                return SQLITE_CANTOPEN
            }
            identity = found
        }
        let encrypted = EncryptedFile(
            kind: kind, real: realFile, identity: identity, registeredName: kind == .database ? name : nil,
            cipher: cipher)
        let state = Unmanaged.passRetained(encrypted)
        (slot + 8).storeBytes(of: state.toOpaque(), as: UnsafeMutableRawPointer.self)
        file.pointee.pMethods = UnsafePointer(methods)
        return SQLITE_OK
    }

    /// The `EncryptedFile` behind one of our `sqlite3_file`s.
    static func state(_ file: UnsafeMutablePointer<sqlite3_file>?) -> EncryptedFile {
        let pointer = (UnsafeMutableRawPointer(file!) + 8).load(as: UnsafeMutableRawPointer.self)
        return Unmanaged<EncryptedFile>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// Closes the real file and lets the `EncryptedFile` go.
    static func close(_ file: UnsafeMutablePointer<sqlite3_file>?) -> Int32 {
        let pointer = (UnsafeMutableRawPointer(file!) + 8).load(as: UnsafeMutableRawPointer.self)
        let state = Unmanaged<EncryptedFile>.fromOpaque(pointer)
        let encrypted = state.takeUnretainedValue()
        if let name = encrypted.registeredName {
            DatabaseIdentity.remove(name: name)
            encrypted.identity.databaseClosed()
        }
        let real = encrypted.real
        let code = real.pointee.pMethods.pointee.xClose(real)
        state.release()
        return code
    }
}
