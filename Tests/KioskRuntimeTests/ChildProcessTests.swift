import TestSupport
import Testing

@Suite("ChildProcess: the tests' way of running programs")
struct ChildProcessTests {
    @Test(
        "a child that writes a megabyte to standard error before its standard output is read in full",
        // What it checks is that the run ends (a runner reading one pipe to its end first never would); alone it
        // takes 0.2 s. In the whole suite it shows 50 to 180 s, nearly all of it before its body runs: Swift
        // Testing starts every test at once and their bodies wait their turn on the 2-thread cooperative pool
        // (measured: the body began 45 s after "started", and the run itself took 8 s, its resumptions queued
        // the same way). The child writes into files and never waits on a reader. A limit of 1 minute failed 4
        // runs in 6; the suite's own deadline (scripts/swift-test-bounded.sh) names a test that never ends.
        .timeLimit(.minutes(5)))
    func bothPipesAtOnce() async throws {
        // Standard error first: reading standard output to its end first would wait on a child blocked on a
        // full standard-error pipe.
        let script = "head -c 1048576 /dev/zero | tr '\\0' e >&2; head -c 1048576 /dev/zero | tr '\\0' o; exit 3"
        let (status, out, err) = try await ChildProcess.run(path: "/bin/sh", ["-c", script], in: "/")
        #expect(status == 3)
        #expect(err.utf8.count == 1_048_576 && err.utf8.allSatisfy { $0 == UInt8(ascii: "e") })
        #expect(out.utf8.count == 1_048_576 && out.utf8.allSatisfy { $0 == UInt8(ascii: "o") })
    }
}
