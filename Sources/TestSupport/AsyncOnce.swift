/// A value made once, by the first task that asks; the others wait for it (and get its error too).
public actor AsyncOnce<Value: Sendable> {
    private let make: @Sendable () async throws -> Value
    private var making: Task<Value, any Error>?

    public init(_ make: @escaping @Sendable () async throws -> Value) { self.make = make }

    public func value() async throws -> Value {
        if let making { return try await making.value }
        let task = Task { try await make() }
        making = task
        return try await task.value
    }
}
