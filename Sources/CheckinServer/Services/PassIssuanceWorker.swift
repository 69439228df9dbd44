import CheckinAdmin
import CheckinCore
import Foundation
import Logging
import ServiceLifecycle

#if canImport(Glibc)
    import Glibc
#endif

/// Runs the pass workflow's due steps: `workers` loops, each taking one issuance at a time from the
/// repository (which keeps two workers, of this process or another, off the same one), then waiting for the
/// next one due (at most `pollInterval`: another process may have added work).
public struct PassIssuanceWorker: Service {
    public let repository: any CheckinRepository
    public let steps: PassIssuanceSteps
    public let clock: any ServerClock
    public let workers: Int
    public let pollInterval: Duration
    public let logger: Logger
    /// Fault injection for the crash tests: the process kills itself (SIGKILL) right after committing this step.
    public let crashAfter: IssuanceStep?
    /// Counts each step run for `GET /metrics`; nil: not counted.
    public var metrics: ServerMetrics?

    public init(
        repository: any CheckinRepository, steps: PassIssuanceSteps, clock: any ServerClock = SystemServerClock(),
        workers: Int = 2, pollInterval: Duration = .seconds(1), logger: Logger = Logger(label: "pass-issuance"),
        crashAfter: IssuanceStep? = nil
    ) {
        self.repository = repository
        self.steps = steps
        self.clock = clock
        self.workers = workers
        self.pollInterval = pollInterval
        self.logger = logger
        self.crashAfter = crashAfter
    }

    /// Runs steps until none is due; returns how many ran. Tests call it with a manual clock.
    @discardableResult
    public func runDue() async throws -> Int {
        var count = 0
        while (try await runOne()) != nil { count += 1 }
        return count
    }

    /// Runs the first due step, if any, and returns the issuance as stored after it.
    public func runOne() async throws -> PassIssuance? {
        let now = clock.now()
        let steps = steps
        let ran = try await repository.runNextIssuanceStep(now: now) { issuance, guest in
            await steps.run(issuance, guest: guest, now: now)
        }
        if let ran {
            metrics?.issuanceStep(nowAt: ran.step.rawValue, failed: ran.lastError != nil)
            if let error = ran.lastError, ran.step != .cancelled {
                logger.warning("pass \(ran.id) for guest \(ran.guest.text): \(ran.step.rawValue): \(error)")
            }
            if let crashAfter, Self.finished(crashAfter, by: ran) {
                logger.critical("fault injection: killing the server after the \(crashAfter.rawValue) step")
                kill(getpid(), SIGKILL)
            }
        }
        return ran
    }

    /// Whether `ran` is the stored result of `step` having succeeded.
    static func finished(_ step: IssuanceStep, by ran: PassIssuance) -> Bool {
        guard ran.attempts == 0, ran.lastError == nil else { return false }
        switch step {
        case .sign: return ran.step == .render
        case .render: return ran.step == .store
        case .store: return ran.step == .email || (ran.step == .done && ran.sentAt == nil)
        case .email: return ran.step == .done && ran.sentAt != nil
        case .done, .cancelled, .failed: return false
        }
    }

    public func run() async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<max(1, workers) {
                group.addTask { try await loop() }
            }
            try await group.waitForAll()
        }
    }

    func loop() async throws {
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            do {
                if try await runOne() != nil { continue }
                var wait = pollInterval
                if let due = try await repository.nextIssuanceDue() {
                    let seconds = max(0, due.timeIntervalSince(clock.now()))
                    wait = min(wait, .milliseconds(Int64(seconds * 1000)))
                }
                try await sleepUntilShutdown(for: max(wait, .milliseconds(20)))
            } catch is CancellationError {
                return
            } catch {
                // The database went away for a moment: say so and try again, never stop issuing.
                logger.error("pass issuance: \(error)")
                do { try await sleepUntilShutdown(for: pollInterval) } catch { return }
            }
        }
    }
}
