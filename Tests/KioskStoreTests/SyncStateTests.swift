import GRDB
import KioskCore
import Testing

@testable import KioskStore

@Suite("Sync state: enrolment, batches in scan order, the server's answers")
struct SyncStateTests {
    static let enrolment = SyncEnrolment(
        serverURL: "https://127.0.0.1:8443", deviceID: "dev-1", token: "secret", tenant: Fixture.tenant,
        queueEpoch: "epoch-1", caFile: "/etc/kiosk/ca.pem", enrolledAt: Fixture.time(0))

    @Test("the enrolment is kept in the database, and a new one replaces it", arguments: StoreKind.allCases)
    func enrolment(_ kind: StoreKind) throws {
        let db = try TestDatabase(kind)
        let store = try db.open()
        #expect(try store.enrolment() == nil)
        #expect(try store.lastContact() == nil)
        try store.saveEnrolment(Self.enrolment)
        #expect(try store.enrolment() == Self.enrolment)
        var again = Self.enrolment
        again.token = "other"
        again.caFile = nil
        try store.saveEnrolment(again)
        #expect(try store.enrolment() == again)
        try store.recordContact(SyncContact(at: Fixture.time(5), clockOffsetMilliseconds: -300_000))
        #expect(try store.lastContact() == SyncContact(at: Fixture.time(5), clockOffsetMilliseconds: -300_000))
        let measured = SyncContact(
            at: Fixture.time(6), clockOffsetMilliseconds: -300_040, clockOffsetUncertaintyMilliseconds: 35)
        try store.recordContact(measured)
        #expect(try store.lastContact() == measured)
    }

    @Test("batches come in scan order, at most the limit", arguments: StoreKind.allCases)
    func batches(_ kind: StoreKind) throws {
        let db = try TestDatabase(kind)
        let store = try db.open()
        try store.upsertGuests(Fixture.roster)
        for (n, guest) in Fixture.roster.enumerated() {
            let scan = Fixture.checkIn(guest, at: 100 - n)
            _ = try store.record(checkIn: scan, attempt: Fixture.attempt(for: scan))
        }
        let batch = try store.nextSyncBatch(limit: 3)
        #expect(batch.map(\.checkIn.guest) == Fixture.roster.prefix(3).map(\.guest))
        #expect(batch.map(\.sequence) == batch.map(\.sequence).sorted())
    }

    @Test(
        "answered items leave the queue in one step; superseded and rejected ones are kept",
        arguments: StoreKind.allCases)
    func answers(_ kind: StoreKind) throws {
        let db = try TestDatabase(kind)
        let store = try db.open()
        try store.upsertGuests(Fixture.roster)
        for (n, guest) in Fixture.roster.prefix(4).enumerated() {
            let scan = Fixture.checkIn(guest, at: n)
            _ = try store.record(checkIn: scan, attempt: Fixture.attempt(for: scan))
        }
        let batch = try store.nextSyncBatch()
        #expect(batch.count == 4)
        let answers = [
            SyncAnswer(sequence: batch[0].sequence, outcome: .confirmed),
            SyncAnswer(sequence: batch[1].sequence, outcome: .superseded(door: "South", at: Fixture.time(-60))),
            SyncAnswer(sequence: batch[2].sequence, outcome: .rejected(reason: "unknown_guest")),
        ]
        #expect(try store.applySyncAnswers(answers, at: Fixture.time(10)) == 3)
        #expect(try store.applySyncAnswers(answers, at: Fixture.time(11)) == 0, "a repeated answer changes nothing")
        #expect(try store.nextSyncBatch().map(\.sequence) == [batch[3].sequence])
        #expect(try store.pendingCount() == 1)
        #expect(
            try store.supersededScans() == [
                SupersededScan(
                    sequence: batch[1].sequence, checkIn: batch[1].checkIn, winningDoor: "South",
                    winningAt: Fixture.time(-60))
            ])
        #expect(
            try store.syncFailures() == [
                SyncFailure(
                    sequence: batch[2].sequence, checkIn: batch[2].checkIn, reason: "unknown_guest",
                    failedAt: Fixture.time(10))
            ])
        #expect(try store.checkIns(event: Fixture.event).count == 4, "the kiosk's own check-ins stay")
    }
}
