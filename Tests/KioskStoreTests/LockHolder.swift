import GRDB

/// Another process's connection to a database file, holding its write lock until `release()`.
final class LockHolder {
    private let queue: DatabaseQueue

    /// Opens `path` and runs `sql` (which begins a transaction and leaves it open).
    init(path: String, sql: String = "BEGIN EXCLUSIVE") throws {
        var configuration = Configuration()
        configuration.allowsUnsafeTransactions = true  // the open transaction is the point
        queue = try DatabaseQueue(path: path, configuration: configuration)
        try queue.writeWithoutTransaction { try $0.execute(sql: sql) }
    }

    func release() throws {
        try queue.writeWithoutTransaction { try $0.execute(sql: "ROLLBACK") }
    }
}
