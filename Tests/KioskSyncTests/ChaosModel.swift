import Foundation

/// What must be true after a chaos run, as a plain value: the test feeds it what it did (cancellations, walk-ins)
/// and what each door showed for each scan (the verdict in the kiosk's audit log), then compares it with what the
/// server and the kiosks report at the end (`ChaosObservation`). It knows nothing of processes or proxies.
struct ChaosModel: Sendable {
    /// One scan a door decided: the door, the guest, the door's own scan time, and its verdict.
    struct Scan: Hashable, Sendable, CustomStringConvertible {
        var door: String
        var guest: String
        var at: Date
        var verdict: String

        var admitting: Bool { verdict == "admitted" }
        var description: String { "\(guest) at \(door) \(ChaosModel.time(at)) (\(verdict))" }
    }

    /// A walk-in: added on the server during the run, then its pass shown once to `door`'s camera while the kiosk
    /// was online; the verdicts the door gave for that one scan, in order.
    struct WalkIn: Sendable {
        var guest: String
        var door: String
        var verdicts: [String]
    }

    /// A guest cancelled on the server, then `kioskctl roster refresh` at every door (what each printed), then the
    /// uplink cut before the guest is scanned at every door.
    struct Cancellation: Sendable {
        var guest: String
        var refreshes: [String: String]
    }

    private(set) var scans: [Scan] = []
    private(set) var cancellations: [Cancellation] = []
    private(set) var walkIns: [WalkIn] = []

    mutating func scanned(_ scan: Scan) { scans.append(scan) }
    mutating func cancelled(_ cancellation: Cancellation) { cancellations.append(cancellation) }
    mutating func walkedIn(_ walkIn: WalkIn) { walkIns.append(walkIn) }

    /// The scans that admitted someone: each must be on the server exactly once.
    var admittingScans: [Scan] { scans.filter(\.admitting) }

    /// Each guest's admitting scans, earliest first.
    var admittingByGuest: [String: [Scan]] {
        Dictionary(grouping: admittingScans, by: \.guest).mapValues { $0.sorted { $0.at < $1.at } }
    }

    /// The same guest admitted at more than one door (or twice): every admitting scan after a guest's earliest.
    var doubleEntries: Int { admittingByGuest.values.reduce(0) { $0 + $1.count - 1 } }

    /// The scans that must end up `superseded`: every admitting scan of a guest but the earliest.
    var supersededScans: [Scan] { admittingByGuest.values.flatMap { $0.dropFirst() } }

    /// Scans of two doors closer than this may be ordered either way by the server (each door's clock offset is
    /// measured, not known): the winner is then not checked, only that exactly one scan won.
    static let orderTolerance: TimeInterval = 1

    /// Every way the observation differs from what must hold, each naming its invariant, guest and door.
    func violations(_ observed: ChaosObservation) -> [ChaosViolation] {
        exactlyOnce(observed) + supersededMatchesDoubleEntries(observed) + cancellationsRefused()
            + walkInsAdmitted() + nothingLeft(observed)
    }

    // MARK: - The invariants

    /// Each admitting scan is on the server exactly once (a check-in event of kind `check_in` from that door for
    /// that guest, whatever its outcome), and the server has no check-in event the doors did not admit.
    func exactlyOnce(_ observed: ChaosObservation) -> [ChaosViolation] {
        var found: [ChaosViolation] = []
        let events = Dictionary(grouping: observed.scanEvents) { "\($0.door) \($0.guest)" }
        let expected = Dictionary(grouping: admittingScans) { "\($0.door) \($0.guest)" }
        for (key, scans) in expected.sorted(by: { $0.key < $1.key }) {
            let onServer = events[key] ?? []
            guard onServer.count != scans.count else { continue }
            let scan = scans[0]
            found.append(
                ChaosViolation(
                    .exactlyOnce, guest: scan.guest, door: scan.door,
                    "admitted at \(Self.time(scan.at)) (\(scans.count) admitting scan(s) at this door), but the server "
                        + "has \(onServer.count) check-in event(s) for it: \(onServer.map(\.description))"))
        }
        for (key, onServer) in events.sorted(by: { $0.key < $1.key }) where expected[key] == nil {
            found.append(
                ChaosViolation(
                    .exactlyOnce, guest: onServer[0].guest, door: onServer[0].door,
                    "on the server (\(onServer.map(\.description))) but never admitted at this door"))
        }
        return found
    }

    /// The superseded count equals the number of double entries: on the server (outcome per scan) and on the
    /// kiosks (`kioskctl status`); each guest's check-in is its earliest scan, every other admitting scan is
    /// `superseded`, and a door lists each of its scans that lost.
    func supersededMatchesDoubleEntries(_ observed: ChaosObservation) -> [ChaosViolation] {
        var found: [ChaosViolation] = []
        let superseded = observed.scanEvents.filter { $0.outcome == "superseded" }
        if superseded.count != doubleEntries {
            found.append(
                ChaosViolation(
                    .supersededMatchesDoubleEntries, guest: nil, door: nil,
                    "the server has \(superseded.count) superseded scan(s), the doors made \(doubleEntries) double "
                        + "entries (\(admittingByGuest.values.filter { $0.count > 1 }.count) guests)"))
        }
        let kioskSuperseded = observed.doors.values.reduce(0) { $0 + $1.superseded.count }
        if kioskSuperseded != doubleEntries {
            let perDoor = observed.doors.keys.sorted().map { "\($0) \(observed.doors[$0]!.superseded.count)" }
            found.append(
                ChaosViolation(
                    .supersededMatchesDoubleEntries, guest: nil, door: nil,
                    "the kiosks list \(kioskSuperseded) superseded scan(s) (\(perDoor.joined(separator: ", "))), "
                        + "the doors made \(doubleEntries) double entries"))
        }
        let checkIns = Dictionary(grouping: observed.checkIns, by: \.guest)
        for (guest, scans) in admittingByGuest.sorted(by: { $0.key < $1.key }) {
            let winner = scans[0]
            let kept = checkIns[guest] ?? []
            if scans.count > 1, kept.count == 1,
                scans[1].at.timeIntervalSince(winner.at) >= Self.orderTolerance, kept[0].door != winner.door
            {
                found.append(
                    ChaosViolation(
                        .supersededMatchesDoubleEntries, guest: guest, door: kept[0].door,
                        "the server's check-in is \(kept[0].door)'s scan, not the earliest (\(winner))"))
            }
            // Which scan won: the one the server kept (the earliest, within the tolerance).
            let keptDoor = kept.first?.door ?? winner.door
            for scan in scans {
                let event = observed.scanEvents.first { $0.door == scan.door && $0.guest == scan.guest }
                guard let event else { continue }  // reported by exactlyOnce
                let lost = scan.door != keptDoor
                if lost, event.outcome != "superseded" {
                    found.append(
                        ChaosViolation(
                            .supersededMatchesDoubleEntries, guest: guest, door: scan.door,
                            "double entry: the scan at \(Self.time(scan.at)) is '\(event.outcome ?? "-")' on the "
                                + "server, expected 'superseded' (the check-in is \(keptDoor)'s; scans: \(scans))"))
                }
                if !lost, scans.count > 1, event.outcome == "superseded" {
                    found.append(
                        ChaosViolation(
                            .supersededMatchesDoubleEntries, guest: guest, door: scan.door,
                            "the scan the server kept as the check-in is 'superseded' (scans: \(scans))"))
                }
                let listed = observed.doors[scan.door]?.superseded.contains(guest) ?? false
                if lost, !listed {
                    found.append(
                        ChaosViolation(
                            .supersededMatchesDoubleEntries, guest: guest, door: scan.door,
                            "double entry: this door's scan at \(Self.time(scan.at)) lost to \(keptDoor)'s, but "
                                + "`kioskctl status` at \(scan.door) does not list it as superseded"))
                }
                if !lost, listed, !scans.dropFirst().contains(where: { $0.door == scan.door }) {
                    found.append(
                        ChaosViolation(
                            .supersededMatchesDoubleEntries, guest: guest, door: scan.door,
                            "`kioskctl status` lists the scan as superseded, but it is the guest's check-in"))
                }
            }
        }
        for (door, state) in observed.doors.sorted(by: { $0.key < $1.key }) {
            for guest in state.superseded where (admittingByGuest[guest]?.count ?? 0) < 2 {
                found.append(
                    ChaosViolation(
                        .supersededMatchesDoubleEntries, guest: guest, door: door,
                        "`kioskctl status` lists a superseded scan, but the guest was admitted "
                            + "\(admittingByGuest[guest]?.count ?? 0) time(s) in all"))
            }
        }
        return found
    }

    /// A cancellation refreshed before the doors open is never admitted: its scans, uplink cut, are refused at
    /// every door.
    func cancellationsRefused() -> [ChaosViolation] {
        var found: [ChaosViolation] = []
        for cancellation in cancellations {
            let seen = scans.filter { $0.guest == cancellation.guest }
            for scan in seen where scan.admitting {
                let refresh = cancellation.refreshes[scan.door] ?? "?"
                found.append(
                    ChaosViolation(
                        .cancellationRefused, guest: scan.guest, door: scan.door,
                        "cancelled on the server, then `kioskctl roster refresh` (which said: \(refresh)), then the "
                            + "uplink cut: admitted at \(Self.time(scan.at))"))
            }
            let doors = Set(seen.map(\.door))
            for door in cancellation.refreshes.keys.sorted() where !doors.contains(door) {
                found.append(
                    ChaosViolation(.cancellationRefused, guest: cancellation.guest, door: door, "never scanned there"))
            }
        }
        return found
    }

    /// A walk-in is admitted on the first scan once the kiosk is online (it may first say `not_in_roster`, ask for
    /// the roster's changes and decide the same scan again).
    func walkInsAdmitted() -> [ChaosViolation] {
        walkIns.compactMap { walkIn in
            let admitted =
                walkIn.verdicts.last == "admitted"
                && walkIn.verdicts.dropLast().allSatisfy { $0 == "not_in_roster" }
            guard !admitted else { return nil }
            return ChaosViolation(
                .walkInAdmitted, guest: walkIn.guest, door: walkIn.door,
                "added on the server, its pass shown once to the online door: verdicts \(walkIn.verdicts), "
                    + "expected [not_in_roster,] admitted")
        }
    }

    /// At the end, after healing, nothing stays queued at a door, no sync failure, nothing rejected on the server.
    func nothingLeft(_ observed: ChaosObservation) -> [ChaosViolation] {
        var found: [ChaosViolation] = []
        for (door, state) in observed.doors.sorted(by: { $0.key < $1.key }) {
            if state.pending != 0 {
                found.append(ChaosViolation(.nothingLeft, guest: nil, door: door, "\(state.pending) still queued"))
            }
            for (guest, reason) in state.failures {
                found.append(ChaosViolation(.nothingLeft, guest: guest, door: door, "sync failure: \(reason)"))
            }
        }
        for event in observed.scanEvents where event.outcome == "rejected" {
            found.append(
                ChaosViolation(.nothingLeft, guest: event.guest, door: event.door, "rejected on the server: \(event)"))
        }
        return found
    }

    static func time(_ date: Date) -> String {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withTime, .withColonSeparatorInTime, .withFractionalSeconds]
        return f.string(from: date)
    }
}

/// What the server and the kiosks say at the end of a chaos run.
struct ChaosObservation: Sendable {
    /// A check-in event of kind `check_in` in the server's export: one per scan uploaded.
    struct ScanEvent: Sendable, CustomStringConvertible {
        var door: String
        var guest: String
        var scannedAt: Date
        var outcome: String?

        var description: String { "\(door) \(ChaosModel.time(scannedAt)) \(outcome ?? "-")" }
    }

    /// A guest's check-in on the server (its winning scan).
    struct CheckIn: Sendable {
        var door: String
        var guest: String
        var scannedAt: Date
    }

    /// One kiosk, from `kioskctl status`.
    struct Door: Sendable {
        var pending: Int
        /// Guest and reason of each sync failure.
        var failures: [(String, String)]
        /// The guests of the door's superseded scans.
        var superseded: [String]
    }

    var scanEvents: [ScanEvent]
    var checkIns: [CheckIn]
    var doors: [String: Door]
}

/// One invariant that did not hold, precisely: which, for which guest at which door, and how.
struct ChaosViolation: Sendable, CustomStringConvertible {
    enum Invariant: String, Sendable, CaseIterable {
        case exactlyOnce = "each admitting scan is on the server exactly once"
        case supersededMatchesDoubleEntries = "the superseded count equals the number of double entries"
        case cancellationRefused = "a cancellation refreshed before the doors open is never admitted"
        case walkInAdmitted = "a walk-in is admitted on the first scan once the kiosk is online"
        case nothingLeft = "at the end nothing stays queued or rejected"
    }

    var invariant: Invariant
    var guest: String?
    var door: String?
    var detail: String

    init(_ invariant: Invariant, guest: String?, door: String?, _ detail: String) {
        self.invariant = invariant
        self.guest = guest
        self.door = door
        self.detail = detail
    }

    var description: String {
        let subject = [guest.map { "guest \($0)" }, door.map { "door \($0)" }].compactMap { $0 }
        return "[\(invariant.rawValue)] " + (subject.isEmpty ? "" : subject.joined(separator: ", ") + ": ") + detail
    }
}
