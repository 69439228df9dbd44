extension SQLiteConnection {
    /// Runs a cached statement that returns no rows; returns the number of rows it changed.
    @discardableResult
    func run(_ sql: String, name: String, _ values: [SQLiteValue] = []) throws(StoreError) -> Int {
        let statement = try self.statement(sql, name: name)
        defer { statement.reset() }
        try statement.bind(values)
        while try statement.step() {}
        return changes
    }

    /// Runs a cached query and reads every row.
    func rows<T>(_ sql: String, name: String, _ values: [SQLiteValue] = [],
                 _ read: (SQLiteRow) throws(StoreError) -> T) throws(StoreError) -> [T] {
        let statement = try self.statement(sql, name: name)
        defer { statement.reset() }
        try statement.bind(values)
        var result: [T] = []
        while try statement.step() { result.append(try read(statement.row)) }
        return result
    }

    /// Runs a cached query and reads its first row, if any.
    func firstRow<T>(_ sql: String, name: String, _ values: [SQLiteValue] = [],
                     _ read: (SQLiteRow) throws(StoreError) -> T) throws(StoreError) -> T? {
        let statement = try self.statement(sql, name: name)
        defer { statement.reset() }
        try statement.bind(values)
        return try statement.step() ? try read(statement.row) : nil
    }

    /// Runs `body` in one `BEGIN IMMEDIATE` ... `COMMIT` transaction, rolled back if anything throws.
    ///
    /// IMMEDIATE takes the write lock at the start, so a database held by another process fails here (after
    /// the busy timeout) rather than half way through. `name` says what it is for in error messages.
    func transaction<T>(_ name: String, _ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE", "starting the \(name) transaction with BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT", "committing the \(name) transaction")
            return result
        } catch {
            // SQLite may already have rolled back (e.g. on SQLITE_FULL); then there is nothing to roll back.
            if !isAutocommit { try? execute("ROLLBACK", "rolling back the \(name) transaction") }
            throw error
        }
    }
}
