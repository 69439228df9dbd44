import Testing

/// Each test (each case of a parameterized one) of a suite marked with it drops the PostgreSQL databases it made
/// when it ends, passed or failed, after stopping the clients it ran on them.
public struct DropsTestDatabases: TestTrait, SuiteTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        guard testCase != nil else { return try await function() }
        let registry = TestDatabaseRegistry()
        do {
            try await TestDatabases.$made.withValue(registry) { try await function() }
        } catch {
            try? await registry.dropAll()
            throw error
        }
        try await registry.dropAll()
    }
}

extension Trait where Self == DropsTestDatabases {
    /// Drops the PostgreSQL databases each test made when it ends.
    public static var dropsTestDatabases: Self { DropsTestDatabases() }
}
