import CheckinCore
import CheckinServer
import DedicatedThreads
import Foundation
import Logging
import PostgresTestSupport
import ServiceLifecycle
import Synchronization
import TestSupport
import Testing

/// The server's background workers in a service group: a graceful shutdown wakes them from their wait
/// between rounds, on every store.
@Suite("Workers and graceful shutdown", .dropsTestDatabases)
struct WorkerShutdownTests {
    @Test(arguments: RepositoryFactory.all)
    func workersWaitingTenMinutesStopAtOnceOnShutdown(_ factory: RepositoryFactory) async throws {
        // Each stage is recorded: one whole-suite run of a series hung here on all three stores with every thread of
        // the process idle, which 75 runs of this test alone did not repeat. A run that hangs again fails here
        // after 5 minutes and says where it was.
        let stage = Stage()
        // On the test-server threads: the service group's resumption once waited 31 s for the cooperative pool in a
        // full run on 2 cores, which says nothing about the workers.
        let stopped = try await resultWithin(.seconds(300)) {
            try await withTaskExecutorPreference(ThreadExecutor.testServers) {
                try await Self.stopWorkers(factory, stage)
            }
        }
        guard let stopped else {
            let report = await TestDatabases.report(TestDatabases.made)
            Issue.record("not done after 5 minutes, while \(stage.current)\n\(report)")
            return
        }
        // Before: each slept its whole interval, 10 minutes, through the shutdown. The bound leaves room for a
        // first round still under way on a loaded machine.
        #expect(stopped < .seconds(60), "the workers took \(stopped) to stop")
    }

    /// Starts both workers, waits until each waits for its next round, shuts the group down; how long that took.
    private static func stopWorkers(_ factory: RepositoryFactory, _ stage: Stage) async throws -> Duration {
        let h = try await Harness(factory)
        stage.now("making the workers")
        var quiet = Logger(label: "workers")
        quiet.logLevel = .critical
        let steps = PassIssuanceTests.steps(h, folder: RepositoryFactory.temporaryFolder())
        let issuance = PassIssuanceWorker(
            repository: h.repository, steps: steps, clock: h.clock, pollInterval: .seconds(600), logger: quiet)
        let watch = DeviceWatch(
            repository: h.repository,
            sender: OfflineAlertSender(repository: h.repository, mailer: nil, publicURL: "https://checkin.test"),
            clock: h.clock, interval: .seconds(600), logger: quiet)
        let group = ServiceGroup(
            configuration: .init(
                services: [.init(service: issuance), .init(service: watch)], gracefulShutdownSignals: [],
                logger: quiet))
        let clock = ContinuousClock()
        return try await withThrowingTaskGroup(of: Duration.self) { tasks in
            tasks.addTask {
                stage.now("running the workers")
                try await group.run()
                return .zero
            }
            // Both have run a round and are waiting (the watch looked once, issuance found nothing due).
            try await Task.sleep(for: .milliseconds(500))
            let start = clock.now
            stage.now("waiting for the workers to stop after the graceful shutdown")
            await group.triggerGracefulShutdown()
            _ = try await tasks.next()
            return clock.now - start
        }
    }
}

/// Where a test is, for its message if it does not finish.
private final class Stage: Sendable {
    private let stage = Mutex("opening the store")

    func now(_ text: String) { stage.withLock { $0 = text } }
    var current: String { stage.withLock { $0 } }
}
