import Foundation
import GRDB
import KioskCore
import PassFormat
import SignedRecords
import Testing

@testable import KioskStore

/// Issue 18, point 5: a copy of kiosk.db and its WAL reveals no guest name, e-mail, phone, confirmation code or
/// device token; a plain database is encrypted in place losing nothing; a wrong or missing key is refused.
@Suite("Kiosk database encrypted at rest")
struct AtRestTests {
    static let guest = RosterGuest(
        guest: GuestID(bytes: Array("zebediah-quarmby".utf8.prefix(GuestID.byteCount)))!, tenant: Fixture.tenant,
        event: Fixture.event, name: "Zebediah Quarmby-Fotheringay", email: "zebediah.quarmby@example.org",
        partySize: 2, notes: "phone +44 7700 900123")
    static let token = "dtok_9f86d081884c7d659a2feaa0c55ad015"
    static let enrolment = SyncEnrolment(
        serverURL: "https://checkin.example:8443", deviceID: "dev-41", token: token, tenant: Fixture.tenant,
        queueEpoch: "epoch-1", caFile: nil, enrolledAt: Fixture.time(0))

    /// What must not be found in the files' bytes.
    static var secrets: [String: String] {
        [
            "name": "Quarmby", "first name": "Zebediah", "e-mail": guest.email, "phone": "7700 900123",
            "code": guest.guest.text, "token": token,
        ]
    }

    /// The secrets found in `path` and its WAL, as copied now.
    static func secretsFound(in path: String) throws -> [String] {
        var bytes = Data()
        for suffix in ["", "-wal"] {
            if let data = FileManager.default.contents(atPath: path + suffix) { bytes.append(data) }
        }
        #expect(bytes.count > 4096)
        return secrets.filter { bytes.range(of: Data($0.value.utf8)) != nil }.map(\.key).sorted()
    }

    /// The door's day on `store`: roster, an admit (check-in, queue, audit with the pass), enrolment.
    static func fill(_ store: SQLiteDoorStore) throws {
        try store.upsertGuests(Fixture.roster + [guest])
        try store.saveEnrolment(enrolment)
        let checkIn = Fixture.checkIn(guest, at: 10)
        #expect(
            try store.record(checkIn: checkIn, attempt: Fixture.attempt(for: checkIn, payload: guest.guest.text))
                == .recorded)
        let other = Fixture.checkIn(Fixture.anna, at: 11)
        #expect(try store.record(checkIn: other, attempt: Fixture.attempt(for: other)) == .recorded)
    }

    /// A database as a kiosk before encryption wrote it (plain, WAL).
    static func plainStore(_ path: String) throws -> SQLiteDoorStore {
        let pool = try DatabasePool(path: path)
        return try SQLiteDoorStore(database: pool, path: path)
    }

    @Test("a copy of kiosk.db and its WAL holds no name, e-mail, phone, code or token")
    func copyRevealsNothing() throws {
        let folder = try TemporaryFolder()
        // The same day on a plain database shows what the test looks for is there to find.
        let plain = folder.file("plain.db")
        do {
            let store = try Self.plainStore(plain)
            try Self.fill(store)
            #expect(try Self.secretsFound(in: plain) == Self.secrets.keys.sorted())
        }
        let path = folder.file("kiosk.db")
        let store = try SQLiteDoorStore(path: path, mode: .createIfMissing, key: .random())
        try Self.fill(store)
        #expect(try store.pendingCount() == 2)
        // While the kiosk runs (pages still in the WAL) and after a checkpoint.
        #expect(try Self.secretsFound(in: path) == [])
        try store.database.writeWithoutTransaction { try $0.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        #expect(try Self.secretsFound(in: path) == [])
        guard case .checkedIn(let found, _) = try store.lookUp(guest: Self.guest.guest, event: Fixture.event) else {
            Issue.record("the admitted guest is not found checked in")
            return
        }
        #expect(found.name == Self.guest.name)
    }

    @Test("upgrading a plain database encrypts it in place and keeps every row and queued item")
    func upgradeKeepsEverything() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("kiosk.db")
        let before: (pending: [PendingCheckIn], checkIns: [CheckIn], audit: [ScanAttempt], guests: Int)
        do {
            let store = try Self.plainStore(path)
            try Self.fill(store)
            before = (
                try store.pendingCheckIns(limit: 100), try store.checkIns(event: Fixture.event),
                try store.auditLog(limit: 100), try store.guestCount(event: Fixture.event)
            )
        }
        #expect(try Self.secretsFound(in: path) == Self.secrets.keys.sorted())

        let key = DatabaseKey.random()
        do {
            let store = try SQLiteDoorStore(path: path, mode: .openExisting, key: key)
            #expect(try store.pendingCheckIns(limit: 100) == before.pending)
            #expect(try store.checkIns(event: Fixture.event) == before.checkIns)
            #expect(try store.auditLog(limit: 100) == before.audit)
            #expect(try store.guestCount(event: Fixture.event) == before.guests)
            #expect(try store.enrolment() == Self.enrolment)
            // The old plaintext is in neither the file nor its WAL, not even in free pages.
            #expect(try Self.secretsFound(in: path) == [])
            // The queue goes on: a new admit takes the next sequence.
            let next = Fixture.checkIn(Fixture.bob, at: 12)
            #expect(try store.record(checkIn: next, attempt: Fixture.attempt(for: next)) == .recorded)
            #expect(try store.pendingCheckIns(limit: 100).map(\.sequence).last! > before.pending.last!.sequence)
            #expect(try Self.secretsFound(in: path) == [])
        }
        #expect(!FileManager.default.fileExists(atPath: path + ".encrypting"))
        let reopened = try SQLiteDoorStore(path: path, mode: .openExisting, key: key)
        #expect(try reopened.pendingCount() == before.pending.count + 1)
    }

    @Test("search finds guests by name prefix, name word, e-mail and code prefix in an encrypted file")
    func searchOnEncryptedFile() throws {
        let folder = try TemporaryFolder()
        let store = try SQLiteDoorStore(path: folder.file("kiosk.db"), mode: .createIfMissing, key: .random())
        try Self.fill(store)
        func names(_ prefix: String) throws -> [String] {
            try store.searchGuests(prefix: prefix, event: Fixture.event, limit: 10).map(\.name)
        }
        #expect(try names("zeb") == [Self.guest.name])
        #expect(try names("fother") == [Self.guest.name])
        #expect(try names("zebediah.quarmby@") == [Self.guest.name])
        #expect(try names("smi") == ["Anna Smith", "carla smithers", "Dan Brown"])  // smithd@example.net
        let code = String(Self.guest.guest.text.prefix(7))
        #expect(try store.guests(codePrefix: code, event: Fixture.event, limit: 5).map(\.guest) == [Self.guest.guest])
    }

    @Test("a wrong key is refused with what to do, and the file is not changed")
    func wrongKeyRefused() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("kiosk.db")
        let key = DatabaseKey.random()
        do { try Self.fill(try SQLiteDoorStore(path: path, mode: .createIfMissing, key: key)) }
        let bytes = FileManager.default.contents(atPath: path)
        let error = storeError { _ = try SQLiteDoorStore(path: path, mode: .openExisting, key: .random()) }
        #expect(error?.kind == .wrongKey)
        #expect(error?.description.contains("encrypted under another key") == true)
        #expect(error?.description.contains("do not delete it") == true)
        #expect(FileManager.default.contents(atPath: path) == bytes)
        #expect(try SQLiteDoorStore(path: path, mode: .openExisting, key: key).pendingCount() == 2)
    }

    @Test("a missing or unsafe key is refused, naming what to do")
    func missingKeyRefused() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("kiosk.db")
        let missing = storeError { _ = try SQLiteDoorStore(path: path, mode: .createIfMissing) }
        #expect(missing?.kind == .keyMissing)
        #expect(missing?.description.contains("LoadCredentialEncrypted=kiosk-db-key") == true)
        #expect(!FileManager.default.fileExists(atPath: path))

        let none = storeError { _ = try DatabaseKey.load(file: nil, databasePath: path, environment: [:]) }
        #expect(none?.kind == .keyMissing)

        let keys = folder.file("keys")
        try FileManager.default.createDirectory(atPath: keys, withIntermediateDirectories: false)
        let open = keys + "/db.key"
        FileManager.default.createFile(
            atPath: open, contents: Data(repeating: 7, count: 32), attributes: [.posixPermissions: 0o644])
        let readable = storeError { _ = try DatabaseKey.load(file: open, databasePath: path, environment: [:]) }
        #expect(readable?.kind == .keyRefused)
        #expect(readable?.description.contains("chmod 600") == true)

        let beside = folder.file("db.key")
        FileManager.default.createFile(
            atPath: beside, contents: Data(repeating: 7, count: 32), attributes: [.posixPermissions: 0o600])
        let besideError = storeError { _ = try DatabaseKey.load(file: beside, databasePath: path, environment: [:]) }
        #expect(besideError?.kind == .keyRefused)
        #expect(besideError?.description.contains("beside the database") == true)

        // A systemd credential wins over the file.
        let credentials = folder.file("credentials")
        try FileManager.default.createDirectory(atPath: credentials, withIntermediateDirectories: false)
        FileManager.default.createFile(
            atPath: credentials + "/kiosk-db-key", contents: Data(repeating: 9, count: 32),
            attributes: [.posixPermissions: 0o400])
        let key = try DatabaseKey.load(
            file: beside, databasePath: path, environment: ["CREDENTIALS_DIRECTORY": credentials])
        #expect(key.bytes == [UInt8](repeating: 9, count: 32))
    }
}
