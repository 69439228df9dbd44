import KioskCore

extension DatabaseKey {
    /// The SQLite URI that opens the encrypted database at `path` under this key through the encrypting VFS,
    /// for tests that play another process on the file (holding its lock, running SQL on it). The key stays
    /// registered for the life of the process.
    @_spi(Testing)
    public func sqliteURI(forDatabaseAt path: String) -> String {
        EncryptingVFS.register()
        return EncryptingVFS.uri(path: path, key: EncryptingVFS.remember(pageKey: pageKey))
    }

    /// The key `configuration` names, for such a test.
    @_spi(Testing)
    public static func forTesting(_ configuration: KioskConfiguration) throws -> DatabaseKey {
        try load(for: configuration, environment: [:])
    }
}
