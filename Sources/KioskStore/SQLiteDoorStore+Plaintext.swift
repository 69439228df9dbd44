internal import GRDB

extension SQLiteDoorStore {
    /// A plain (unencrypted) file, as kiosks before encryption wrote it: `kiosk-bench`'s baseline, measured
    /// in the same run as the encrypted store. Not for a door: the kiosk and kioskctl always pass a key.
    @_spi(Benchmarks)
    public static func plaintextForBenchmark(path: String) throws -> SQLiteDoorStore {
        var configuration = Configuration()
        configuration.busyMode = .timeout(2)
        configuration.foreignKeysEnabled = true
        let pool = try DatabasePool(path: path, configuration: configuration)
        try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        let store = try SQLiteDoorStore(database: pool, path: path)
        // The door's lookup path, as the encrypted store has it: the baseline measures the same code.
        store.lookupConnection = try LookupConnection(path: path, uri: nil, busyTimeout: .seconds(2))
        return store
    }
}

extension SQLiteDoorStore {
    /// Writes the WAL into the file and empties it, so the file's size is the database's.
    @_spi(Benchmarks)
    public func checkpointForBenchmark() throws {
        try database.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
    }
}
