import Foundation
import KioskCore
import PassFormat
import SignedRecords
import Testing

@testable import KioskStore

/// Where a test's database lives: each store test runs once in memory and once on disk.
enum StoreKind: String, CaseIterable, CustomTestStringConvertible {
    case memory
    case file

    var testDescription: String { rawValue }
}

/// A temporary folder for one test, removed when the test is done.
final class TemporaryFolder {
    let path: String

    init() throws {
        path =
            FileManager.default.temporaryDirectory
            .appendingPathComponent("kiosk-store-tests-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func file(_ name: String) -> String { path + "/" + name }
}

/// A store of the given kind, with the folder that holds its file (if any).
struct TestDatabase {
    let kind: StoreKind
    let folder: TemporaryFolder
    /// The key its file is encrypted under.
    let key: DatabaseKey

    init(_ kind: StoreKind, key: DatabaseKey = .random()) throws {
        self.kind = kind
        self.key = key
        folder = try TemporaryFolder()
    }

    var path: String { kind == .memory ? SQLiteDoorStore.inMemory : folder.file("kiosk.db") }

    func open(busyTimeout: Duration = .seconds(2), mode: SQLiteDoorStore.OpenMode = .createIfMissing) throws
        -> SQLiteDoorStore
    {
        try SQLiteDoorStore(path: path, mode: mode, key: key, busyTimeout: busyTimeout)
    }
}

enum Fixture {
    static let tenant = TenantID(7)
    static let event = EventID(42)
    static let otherEvent = EventID(43)
    static let door = "North door"

    /// A fixed guest id: `n` repeated (distinct n give distinct, sortable codes).
    static func id(_ n: UInt8) -> GuestID { GuestID(bytes: [UInt8](repeating: n, count: GuestID.byteCount))! }

    static func guest(
        _ n: UInt8, _ name: String, email: String = "", party: Int = 1,
        status: RosterGuest.Status = .active, event: EventID = event
    ) -> RosterGuest {
        RosterGuest(
            guest: id(n), tenant: tenant, event: event, name: name, email: email, partySize: party,
            status: status, notes: "note \(n)")
    }

    static let anna = guest(1, "Anna Smith", email: "anna@example.org", party: 2)
    static let bob = guest(2, "Bob Jones", email: "bjones@example.com")
    static let emile = guest(3, "Émile Zola-Martin", email: "ezola@example.fr")
    static let carla = guest(4, "carla smithers", email: "CARLA@Example.org")
    static let dan = guest(5, "Dan Brown", email: "smithd@example.net")
    static let roster = [anna, bob, emile, carla, dan]

    /// A time in whole milliseconds, so it survives the store's millisecond precision exactly.
    static func time(_ second: Int, ms: Int = 0) -> Date {
        Date(timeIntervalSince1970: Double(1_750_000_000_000 + Int64(second) * 1000 + Int64(ms)) / 1000)
    }

    static func checkIn(
        _ guest: RosterGuest, at second: Int, door: String = door,
        source: ScanSource = .camera
    ) -> CheckIn {
        CheckIn(
            guest: guest.guest, event: guest.event, door: door, at: time(second), arrived: guest.partySize,
            source: source)
    }

    static func attempt(for checkIn: CheckIn, payload: String = "PASS") -> ScanAttempt {
        ScanAttempt(
            at: checkIn.at, door: checkIn.door, source: checkIn.source, payload: payload,
            guest: checkIn.guest, verdict: "admitted", reason: "valid pass")
    }
}

/// The StoreError a throwing call threw, or nil.
func storeError(_ body: () throws -> Void) -> StoreError? {
    do {
        try body()
        return nil
    } catch let error as StoreError {
        return error
    } catch {
        return nil
    }
}
