import CheckinCore
import Foundation
import KioskCore
import PassFormat
import PostgresTestSupport
import Testing

/// Double entries: the same guest admitted at several doors while they were offline. Whatever order the scans
/// reach the server in, the earliest corrected scan is the check-in, every other admit is `superseded` with the
/// check-in's door and time (a repeat of its key answers so), and the event's double-entry report lists each.
@Suite("Double entries reconciled in any arrival order", .dropsTestDatabases)
struct DoubleEntryTests {
    struct Door {
        let device: Device
        var sequence: Int64 = 0

        mutating func scan(_ guest: GuestID, at time: Date, kind: ScanKind = .checkIn, reverts: ScanKey? = nil)
            -> Scan
        {
            sequence += 1
            return Scan(
                key: ScanKey(deviceId: device.id, epoch: device.queueEpoch, sequence: sequence), guest: guest,
                kind: kind, deviceTime: time, clockOffsetMs: 0, arrived: 1, door: device.door, source: "camera",
                reverts: reverts)
        }
    }

    static func doors(_ h: Harness, _ event: Event, _ names: [String]) async throws -> [Door] {
        var doors: [Door] = []
        for name in names { doors.append(Door(device: try await h.enrolDirectly(event: event, door: name))) }
        return doors
    }

    static func apply(_ h: Harness, _ scan: Scan, _ door: Door, _ event: Event) async throws -> ScanOutcome {
        try await h.repository.apply(scan, event: event.id, device: door.device, receivedAt: h.clock.now())
    }

    @Test(arguments: RepositoryFactory.all)
    func theEarlierScanArrivingSecondDisplacesTheFirst(_ factory: RepositoryFactory) async throws {
        let h = try await Harness(factory)
        let (_, event, guests) = try await h.event(guests: 2)
        var doors = try await Self.doors(h, event, ["North", "South"])
        let t0 = h.clock.now().addingTimeInterval(-600)
        let guest = guests[0].id
        let late = doors[0].scan(guest, at: t0.addingTimeInterval(42))
        let early = doors[1].scan(guest, at: t0)
        let cursor = try await h.repository.rosterPage(event: event.id, page: nil, limit: 500).changeCursor

        #expect(try await Self.apply(h, late, doors[0], event).kind == .applied)
        let second = try await Self.apply(h, early, doors[1], event)
        #expect(second.kind == .applied)
        #expect(second.checkIn?.door == "South")

        // The displaced scan is superseded on the server, with the winning door and time...
        let events = try await h.repository.checkInEvents(event: event.id)
        #expect(events.first { $0.key == late.key }?.outcome == .superseded)
        #expect(events.first { $0.key == early.key }?.outcome == .applied)
        // ... a repeat of its key says so (a kiosk that never got its first answer learns it) ...
        let repeated = try await Self.apply(h, late, doors[0], event)
        #expect(repeated.kind == .superseded)
        #expect(repeated.checkIn?.door == "South")
        #expect(repeated.checkIn?.at == t0)
        // ... the guest's row carries the new check-in to every kiosk ...
        let delta = try await h.repository.rosterChanges(event: event.id, since: cursor, limit: 500)
        #expect(delta.guests.last { $0.id == guest }?.checkIn?.door == "South")
        // ... and the report lists it.
        let report = try await h.repository.doubleEntries(event: event.id)
        #expect(report.count == 1)
        #expect(report.first?.checkInDoor == "South")
        #expect(report.first?.otherDoor == "North")
        #expect(report.first?.gapSeconds == 42)
        #expect(report.first?.guestName == guests[0].name)
    }

    @Test(arguments: RepositoryFactory.all)
    func theEarlierScanArrivingFirstSupersedesTheSecond(_ factory: RepositoryFactory) async throws {
        let h = try await Harness(factory)
        let (_, event, guests) = try await h.event(guests: 2)
        var doors = try await Self.doors(h, event, ["North", "South"])
        let t0 = h.clock.now().addingTimeInterval(-600)
        let guest = guests[0].id
        let early = doors[1].scan(guest, at: t0)
        let late = doors[0].scan(guest, at: t0.addingTimeInterval(42))
        #expect(try await Self.apply(h, early, doors[1], event).kind == .applied)
        #expect(try await Self.apply(h, late, doors[0], event).kind == .superseded)
        let report = try await h.repository.doubleEntries(event: event.id)
        #expect(report.map(\.otherDoor) == ["North"])
        #expect(report.map(\.checkInDoor) == ["South"])
        #expect(try await h.repository.checkIns(event: event.id).map(\.door) == ["South"])
    }

    /// Three doors, the scans arriving latest first: each new one displaces the last; at the end the earliest
    /// is the check-in and both others point at it.
    @Test(arguments: RepositoryFactory.all)
    func threeDoorsInReverseOrder(_ factory: RepositoryFactory) async throws {
        let h = try await Harness(factory)
        let (_, event, guests) = try await h.event(guests: 1)
        var doors = try await Self.doors(h, event, ["A", "B", "C"])
        let t0 = h.clock.now().addingTimeInterval(-600)
        let guest = guests[0].id
        let scans = [
            (doors[2].scan(guest, at: t0.addingTimeInterval(20)), 2),
            (doors[1].scan(guest, at: t0.addingTimeInterval(10)), 1),
            (doors[0].scan(guest, at: t0), 0),
        ]
        for (scan, door) in scans { _ = try await Self.apply(h, scan, doors[door], event) }
        let events = try await h.repository.checkInEvents(event: event.id)
        #expect(events.map(\.outcome) == [.superseded, .superseded, .applied])
        for (scan, door) in scans.prefix(2) {
            let again = try await Self.apply(h, scan, doors[door], event)
            #expect(again.kind == .superseded)
            #expect(again.checkIn?.door == "A")
        }
        let report = try await h.repository.doubleEntries(event: event.id)
        #expect(report.map(\.otherDoor) == ["B", "C"])
        #expect(report.allSatisfy { $0.checkInDoor == "A" })
    }

    /// A check-in that had displaced another is reverted (a mistaken admit at that door): the displaced scan,
    /// a real admit at the other door, becomes the check-in again, and there is no double entry any more.
    @Test(arguments: RepositoryFactory.all)
    func revertingTheDisplacingCheckInRestoresTheOther(_ factory: RepositoryFactory) async throws {
        let h = try await Harness(factory)
        let (_, event, guests) = try await h.event(guests: 1)
        var doors = try await Self.doors(h, event, ["North", "South"])
        let t0 = h.clock.now().addingTimeInterval(-600)
        let guest = guests[0].id
        let north = doors[0].scan(guest, at: t0.addingTimeInterval(30))
        let south = doors[1].scan(guest, at: t0)
        _ = try await Self.apply(h, north, doors[0], event)
        _ = try await Self.apply(h, south, doors[1], event)
        #expect(try await h.repository.doubleEntries(event: event.id).count == 1)
        let cursor = try await h.repository.rosterPage(event: event.id, page: nil, limit: 500).changeCursor

        let undo = doors[1].scan(guest, at: t0.addingTimeInterval(60), kind: .revert, reverts: south.key)
        #expect(try await Self.apply(h, undo, doors[1], event).kind == .applied)
        let checkIns = try await h.repository.checkIns(event: event.id)
        #expect(checkIns.map(\.door) == ["North"])
        #expect(checkIns.first?.scanKey == north.key)
        let events = try await h.repository.checkInEvents(event: event.id)
        #expect(events.first { $0.key == north.key }?.outcome == .applied)
        #expect(try await h.repository.doubleEntries(event: event.id).isEmpty)
        let delta = try await h.repository.rosterChanges(event: event.id, since: cursor, limit: 500)
        #expect(delta.guests.last { $0.id == guest }?.checkIn?.door == "North")
        // North's key answers applied again.
        #expect(try await Self.apply(h, north, doors[0], event).kind == .applied)
    }

    /// A superseded admit undone at its own door is no double entry; the check-in stays.
    @Test(arguments: RepositoryFactory.all)
    func revertingASupersededScanLeavesTheCheckIn(_ factory: RepositoryFactory) async throws {
        let h = try await Harness(factory)
        let (_, event, guests) = try await h.event(guests: 1)
        var doors = try await Self.doors(h, event, ["North", "South"])
        let t0 = h.clock.now().addingTimeInterval(-600)
        let guest = guests[0].id
        let south = doors[1].scan(guest, at: t0)
        let north = doors[0].scan(guest, at: t0.addingTimeInterval(30))
        _ = try await Self.apply(h, south, doors[1], event)
        _ = try await Self.apply(h, north, doors[0], event)
        let undo = doors[0].scan(guest, at: t0.addingTimeInterval(60), kind: .revert, reverts: north.key)
        #expect(try await Self.apply(h, undo, doors[0], event).kind == .recorded)
        #expect(try await h.repository.doubleEntries(event: event.id).isEmpty)
        #expect(try await h.repository.checkIns(event: event.id).map(\.door) == ["South"])
    }
}

/// The reconciliation rule as a value: any arrival order of the same scans gives the same check-in.
@Suite("Check-in reconciliation rule", .dropsTestDatabases)
struct CheckInReconciliationTests {
    @Test func everyArrivalOrderGivesTheSameCheckIn() {
        let t0 = Date(timeIntervalSince1970: 1_800_000_000)
        let guest = GuestID.random()
        let events = (0..<4).map { i in
            CheckInEvent(
                event: EventID(1), guest: guest.text, key: ScanKey(deviceId: "dev_\(i)", epoch: "e", sequence: 1),
                kind: .checkIn, door: "Door \(i)", source: "camera", deviceTime: t0, correctedTime: t0 + Double(7 - i),
                receivedAt: t0, arrived: 1, outcome: .applied)
        }
        for order in [[0, 1, 2, 3], [3, 2, 1, 0], [2, 0, 3, 1], [1, 3, 0, 2]] {
            let scans = order.map {
                CheckInReconciliation.StoredScan(event: events[$0], answer: ScanOutcome(kind: .applied))
            }
            let result = CheckInReconciliation.reconcile(scans)
            #expect(result.checkIn?.door == "Door 3")
            #expect(result.changed.count == 4)
            #expect(result.changed.values.filter { $0.kind == .superseded }.count == 3)
            #expect(result.changed.values.allSatisfy { $0.checkIn?.door == "Door 3" })
        }
    }
}
