import Foundation
import Testing

/// The chaos test's model on its own: what it expects from what the doors showed, and what it reports.
@Suite("The chaos test's model")
struct ChaosModelTests {
    let t0 = Date(timeIntervalSince1970: 1_800_000_000)
    let quiet = ChaosObservation.Door(pending: 0, failures: [], superseded: [])

    /// North admits G at t0 and H; South admits G 5 s later (a double entry) and refuses H (already checked in).
    func twoDoors() -> ChaosModel {
        var model = ChaosModel()
        model.scanned(.init(door: "North", guest: "G", at: t0, verdict: "admitted"))
        model.scanned(.init(door: "North", guest: "H", at: t0 + 1, verdict: "admitted"))
        model.scanned(.init(door: "South", guest: "G", at: t0 + 5, verdict: "admitted"))
        model.scanned(.init(door: "South", guest: "H", at: t0 + 6, verdict: "already_checked_in"))
        return model
    }

    func observation(southOutcome: String, southLists: [String]) -> ChaosObservation {
        ChaosObservation(
            scanEvents: [
                .init(door: "North", guest: "G", scannedAt: t0, outcome: "applied"),
                .init(door: "North", guest: "H", scannedAt: t0 + 1, outcome: "applied"),
                .init(door: "South", guest: "G", scannedAt: t0 + 5, outcome: southOutcome),
            ],
            checkIns: [
                .init(door: "North", guest: "G", scannedAt: t0), .init(door: "North", guest: "H", scannedAt: t0 + 1),
            ],
            doors: [
                "North": quiet, "South": .init(pending: 0, failures: [], superseded: southLists),
            ])
    }

    @Test("a double entry reconciled everywhere holds every invariant")
    func reconciled() {
        let model = twoDoors()
        #expect(model.doubleEntries == 1)
        #expect(model.supersededScans.map(\.door) == ["South"])
        #expect(model.violations(observation(southOutcome: "superseded", southLists: ["G"])).isEmpty)
    }

    @Test("a displaced scan left 'applied', and not told to its kiosk, is reported with its guest and door")
    func displacedScan() {
        let violations = twoDoors().violations(observation(southOutcome: "applied", southLists: []))
        #expect(violations.allSatisfy { $0.invariant == .supersededMatchesDoubleEntries }, "\(violations)")
        #expect(violations.contains { $0.guest == "G" && $0.door == "South" && $0.detail.contains("'applied'") })
        #expect(violations.contains { $0.detail.contains("the server has 0 superseded scan(s)") })
        #expect(violations.contains { $0.guest == "G" && $0.detail.contains("does not list it as superseded") })
    }

    @Test("a scan missing on the server, or there twice, breaks exactly-once")
    func exactlyOnce() {
        var missing = observation(southOutcome: "superseded", southLists: ["G"])
        missing.scanEvents.removeFirst()
        #expect(twoDoors().exactlyOnce(missing).map(\.guest) == ["G"])
        var twice = observation(southOutcome: "superseded", southLists: ["G"])
        twice.scanEvents.append(twice.scanEvents[1])
        #expect(twoDoors().exactlyOnce(twice).map(\.door) == ["North"])
    }

    @Test("an admitted cancellation, a walk-in not admitted, and what stays queued are each reported")
    func cancellationWalkInQueue() {
        var model = twoDoors()
        model.cancelled(.init(guest: "C", refreshes: ["North": "complete", "South": "complete"]))
        model.scanned(.init(door: "North", guest: "C", at: t0 + 9, verdict: "cancelled"))
        model.scanned(.init(door: "South", guest: "C", at: t0 + 9, verdict: "admitted"))
        model.walkedIn(.init(guest: "W", door: "North", verdicts: ["not_in_roster"]))
        model.walkedIn(.init(guest: "V", door: "South", verdicts: ["not_in_roster", "admitted"]))
        #expect(model.cancellationsRefused().map(\.door) == ["South"])
        #expect(model.walkInsAdmitted().map(\.guest) == ["W"])
        var left = observation(southOutcome: "superseded", southLists: ["G"])
        left.doors["North"] = .init(pending: 2, failures: [("C", "cancelled")], superseded: [])
        #expect(model.nothingLeft(left).count == 2)
    }
}
