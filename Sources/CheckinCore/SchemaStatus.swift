/// Where a database's schema stands against the steps this server knows: what `GET /readyz` reports.
public struct SchemaStatus: Sendable, Equatable {
    /// Steps this server knows that the database has not applied (it was not migrated: start `serve`, which
    /// migrates, or run the server that matches it).
    public var missing: [String]
    /// Steps the database has applied that this server does not know (a newer server migrated it).
    public var unknown: [String]

    public init(known: [String], applied: [String]) {
        let appliedSet = Set(applied)
        let knownSet = Set(known)
        missing = known.filter { !appliedSet.contains($0) }
        unknown = applied.filter { !knownSet.contains($0) }.sorted()
    }

    public var isCurrent: Bool { missing.isEmpty && unknown.isEmpty }
}
