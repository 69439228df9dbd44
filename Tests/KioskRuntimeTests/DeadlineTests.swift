import TestSupport
import Testing

@Suite("resultWithin: a test's bound on a wait that could hang")
struct DeadlineTests {
    struct Refused: Error {}

    @Test func aBodyThatNeverEndsGivesNilAtTheDeadline() async throws {
        // A wait that ignores cancellation: a continuation nobody resumes. A task group would wait for it forever.
        let result: Int? = try await resultWithin(.milliseconds(200)) {
            await withCheckedContinuation { (_: CheckedContinuation<Void, Never>) in }
            return 1
        }
        #expect(result == nil)
    }

    @Test func aBodyThatEndsGivesItsValueOrItsError() async throws {
        #expect(try await resultWithin(.seconds(60)) { 42 } == 42)
        await #expect(throws: Refused.self) {
            _ = try await resultWithin(.seconds(60)) { () throws -> Int in throw Refused() }
        }
    }
}
