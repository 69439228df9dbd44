import GRDB

@testable import KioskStore

/// Another process's connection to a database file, holding its write lock until `release()`.
final class LockHolder {
    private let queue: DatabaseQueue

    private var keyID: Int?

    /// Opens `path` (encrypted under `key`, the way another kiosk process would) and runs `sql` (which begins a
    /// transaction and leaves it open).
    init(path: String, key: DatabaseKey? = nil, sql: String = "BEGIN EXCLUSIVE") throws {
        var configuration = Configuration()
        configuration.allowsUnsafeTransactions = true  // the open transaction is the point
        var location = path
        if let key {
            EncryptingVFS.register()
            let id = EncryptingVFS.remember(pageKey: key.pageKey)
            keyID = id
            location = EncryptingVFS.uri(path: path, key: id)
            configuration.prepareDatabase { db in try AtRest.prepareEncrypted(db) }
        }
        queue = try DatabaseQueue(path: location, configuration: configuration)
        try queue.writeWithoutTransaction { try $0.execute(sql: sql) }
    }

    deinit { if let keyID { EncryptingVFS.forget(keyID) } }

    func release() throws {
        try queue.writeWithoutTransaction { try $0.execute(sql: "ROLLBACK") }
    }
}
