import CheckinCore
import CheckinPostgres
import Foundation
import KioskCore
import PostgresTestSupport
import Synchronization
import Testing

/// Several workers (and, on PostgreSQL, two server processes: two clients, two repositories on one database)
/// take issuances at once: no step runs twice at the same time, none runs twice at all when none fails, and
/// every issuance ends done.
@Suite(.dropsTestDatabases)
struct IssuanceConcurrencyTests {
    final class Ledger: Sendable {
        struct State {
            var running: Set<String> = []
            var ran: [String: Int] = [:]
            var overlaps = 0
        }
        let state = Mutex(State())

        func begin(_ key: String) {
            state.withLock { s in
                if !s.running.insert(key).inserted { s.overlaps += 1 }
                s.ran[key, default: 0] += 1
            }
        }
        func end(_ key: String) { _ = state.withLock { $0.running.remove(key) } }
    }

    /// A step's result without the work (the workflow's own steps are tested in PassIssuanceTests): this test
    /// is about who runs what, so each step takes a few milliseconds for the workers to collide in.
    static func perform(_ issuance: PassIssuance, ledger: Ledger) async throws -> IssuanceStepResult {
        let key = "\(issuance.id) \(issuance.step.rawValue)"
        ledger.begin(key)
        try await Task.sleep(for: .milliseconds(Int.random(in: 1...4)))
        ledger.end(key)
        switch issuance.step {
        case .sign: return .signed(pass: "PASS-" + issuance.id)
        case .render: return .rendered(png: [1, 2, 3])
        case .store: return .stored(name: issuance.id + ".png")
        default: return .sent(at: Date())
        }
    }

    @Test(arguments: RepositoryFactory.all)
    func workersOfOneOrTwoProcessesNeverRunAStepTwice(_ factory: RepositoryFactory) async throws {
        let first: any CheckinRepository
        let second: any CheckinRepository
        if factory.name == RepositoryFactory.postgres.name {
            let database = try await PostgresTestDatabase.migrated()
            first = try await database.repository()
            second = try await database.repository()
        } else {
            first = try await factory.make()
            second = first
        }
        let h = try await Harness(RepositoryFactory(name: factory.name) { first })
        let (_, event, _) = try await h.event(guests: 0)
        let guests = (0..<24).map { NewGuest(name: "Guest \($0)", email: "g\($0)@example.org") }
        _ = try await first.addGuests(guests, event: event.id, at: h.clock.now())
        let now = h.clock.now()
        let ledger = Ledger()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<6 {
                let repository = index % 2 == 0 ? first : second
                group.addTask {
                    while try await repository.runNextIssuanceStep(
                        now: now, { issuance, _ in try await Self.perform(issuance, ledger: ledger) }) != nil
                    {}
                }
            }
            try await group.waitForAll()
        }
        let state = ledger.state.withLock { $0 }
        #expect(state.overlaps == 0)
        #expect(state.ran.count == 24 * 4 && state.ran.values.allSatisfy { $0 == 1 })
        let all = try await first.issuances(event: event.id, problemsOnly: false, limit: 100)
        #expect(all.count == 24 && all.allSatisfy { $0.step == .done && $0.sentAt != nil })
    }
}
