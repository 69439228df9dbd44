import CheckinCore
import Foundation
import KioskCSV
import KioskCore
import PassFormat
import Testing

@Suite("Check-in rules (pure)")
struct CheckInRulesTests {
    let event = EventID(1)
    let guest = Guest(id: GuestID.random(), event: EventID(1), name: "Ada")
    let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    func scan(
        _ seq: Int64, device: String = "dev_a", kind: ScanKind = .checkIn, at time: Date, offsetMs: Int64? = nil,
        door: String = "North", reverts: ScanKey? = nil
    ) -> Scan {
        Scan(
            key: ScanKey(deviceId: device, epoch: "e", sequence: seq), guest: guest.id, kind: kind, deviceTime: time,
            clockOffsetMs: offsetMs, arrived: 1, door: door, source: "camera", reverts: reverts)
    }

    func checkIn(_ decision: CheckInRules.Decision) -> CheckinCore.CheckIn? {
        if case .becomeCheckIn(let c) = decision.effect { return c }
        return nil
    }

    @Test func correctedTimeIsDeviceTimePlusOffset() {
        #expect(CheckInRules.correctedTime(deviceTime: t0, offsetMs: -300_000) == t0.addingTimeInterval(-300))
        #expect(CheckInRules.correctedTime(deviceTime: t0, offsetMs: nil) == t0)
    }

    @Test func firstScanIsTheCheckIn() {
        let d = CheckInRules.decide(
            scan(1, at: t0), event: event, guest: guest, current: nil, knownOffsetMs: nil, receivedAt: t0)
        #expect(d.outcome.kind == .applied)
        #expect(checkIn(d)?.correctedTime == t0)
    }

    @Test func earliestCorrectedTimeWinsWhicheverArrivesFirst() {
        let late = checkIn(
            CheckInRules.decide(
                scan(1, device: "dev_b", at: t0.addingTimeInterval(60), door: "South"),
                event: event, guest: guest, current: nil, knownOffsetMs: nil, receivedAt: t0))!
        let early = CheckInRules.decide(
            scan(1, at: t0), event: event, guest: guest, current: late, knownOffsetMs: nil, receivedAt: t0)
        #expect(early.outcome.kind == .applied)
        #expect(checkIn(early)?.door == "North")
        let again = CheckInRules.decide(
            scan(2, device: "dev_b", at: t0.addingTimeInterval(90)), event: event, guest: guest,
            current: checkIn(early), knownOffsetMs: nil, receivedAt: t0)
        #expect(again.outcome.kind == .superseded)
        #expect(again.outcome.checkIn?.door == "North")
        #expect(again.effect == .keep)
    }

    @Test func theKnownOffsetCorrectsAScanThatCarriesNone() {
        // The device is five minutes fast: its 10:05 is the server's 10:00.
        let d = CheckInRules.decide(
            scan(1, at: t0.addingTimeInterval(300)), event: event, guest: guest, current: nil,
            knownOffsetMs: -300_000, receivedAt: t0)
        #expect(checkIn(d)?.correctedTime == t0)
        #expect(checkIn(d)?.deviceTime == t0.addingTimeInterval(300))
    }

    @Test func reconfirmAppendsAnEventNeverASecondCheckIn() {
        let first = checkIn(
            CheckInRules.decide(
                scan(1, at: t0), event: event, guest: guest, current: nil, knownOffsetMs: nil, receivedAt: t0))!
        let d = CheckInRules.decide(
            scan(2, kind: .reconfirm, at: t0.addingTimeInterval(-60)), event: event, guest: guest,
            current: first, knownOffsetMs: nil, receivedAt: t0)
        #expect(d.outcome.kind == .recorded)
        #expect(d.effect == .keep)
        #expect(d.event.kind == .reconfirm)
    }

    @Test func revertUndoesOnlyTheScanThatIsTheCheckIn() {
        let first = checkIn(
            CheckInRules.decide(
                scan(1, at: t0), event: event, guest: guest, current: nil, knownOffsetMs: nil, receivedAt: t0))!
        let other = CheckInRules.decide(
            scan(
                5, device: "dev_b", kind: .revert, at: t0,
                reverts: ScanKey(deviceId: "dev_b", epoch: "e", sequence: 4)),
            event: event, guest: guest, current: first, knownOffsetMs: nil, receivedAt: t0)
        #expect(other.outcome.kind == .recorded)
        #expect(other.effect == .keep)
        let mine = CheckInRules.decide(
            scan(2, kind: .revert, at: t0, reverts: first.scanKey), event: event, guest: guest,
            current: first, knownOffsetMs: nil, receivedAt: t0)
        #expect(mine.outcome.kind == .applied)
        #expect(mine.effect == .removeCheckIn)
    }

    @Test func unknownAndCancelledGuestsAreRejected() {
        let unknown = CheckInRules.decide(
            scan(1, at: t0), event: event, guest: nil, current: nil, knownOffsetMs: nil, receivedAt: t0)
        #expect(unknown.outcome == ScanOutcome(kind: .rejected, reason: "unknown_guest"))
        var cancelled = guest
        cancelled.status = .cancelled
        let d = CheckInRules.decide(
            scan(1, at: t0), event: event, guest: cancelled, current: nil, knownOffsetMs: nil, receivedAt: t0)
        #expect(d.outcome.kind == .rejected)
        #expect(d.outcome.reason == "cancelled")
    }

    @Test func kioskVersionsCompareAsNumbers() {
        #expect(KioskVersion("1.10.0")! > KioskVersion("1.9.3")!)
        #expect(KioskVersion("2")! == KioskVersion("2.0.0")!)
        #expect(KioskVersion.isAllowed(reported: "1.2.0", minimum: KioskVersion("1.2")))
        #expect(!KioskVersion.isAllowed(reported: "1.1.9", minimum: KioskVersion("1.2")))
        #expect(!KioskVersion.isAllowed(reported: nil, minimum: KioskVersion("1.2")))
        #expect(KioskVersion.isAllowed(reported: nil, minimum: nil))
        #expect(KioskVersion("one") == nil)
    }
}

@Suite("Guest CSV (RFC 4180)")
struct GuestCSVTests {
    @Test func quotedFieldsWithCommasQuotesAndLineBreaks() throws {
        let csv =
            "name,email,party_size,notes\r\n\"Lovelace, Ada\",ada@example.org,2,\"says \"\"hi\"\"\nat the door\"\r\nBob,,1,\n"
        let guests = try GuestCSV.parse(csv).get()
        #expect(guests.count == 2)
        #expect(guests[0].name == "Lovelace, Ada")
        #expect(guests[0].partySize == 2)
        #expect(guests[0].checkInNote == "says \"hi\"\nat the door")
        #expect(guests[1].email == nil)
    }

    @Test func everyBadLineIsReportedWithItsNumber() {
        let csv = "guest_id,name,party_size\nNOU3WYMHOVZQ4Q2T,Ada,1\n\"multi\nline\",Bob,1\nHHQ5P4QJWF4W4XCA,Cy,zero\n"
        guard case .failure(let failure) = GuestCSV.parse(csv) else {
            Issue.record("a bad CSV was accepted")
            return
        }
        #expect(failure.problems.map(\.line) == [3, 5])
        #expect(failure.problems[1].message.contains("party_size"))
    }

    /// Files an organizer uploads by mistake are named for what they are, each with what to do, and nothing of
    /// them is imported: a picture or a workbook (it was "Line 5: a quote inside an unquoted field"), a
    /// semicolon-separated export (it was one "bad line" per guest), a header with no guest (it was "Guests
    /// imported." with nothing imported).
    @Test(
        arguments: [
            ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00] as [UInt8], 1, "a PNG image"),
            (Array("PK\u{3}\u{4}xl/workbook.xml".utf8), 1, "workbook"),
            (Array("name;email\nAda;ada@example.org\n".utf8), 1, "semicolons"),
            (Array("name,email\r\n".utf8), 1, "no guest after it"),
            (Array("name,email".utf8), 1, "no guest after it"),
        ])
    func mistakenFilesAreNamedForWhatTheyAre(_ bytes: [UInt8], line: Int, says: String) {
        guard case .failure(let failure) = GuestCSV.parse(bytes: bytes) else {
            Issue.record("accepted: \(bytes.prefix(12))")
            return
        }
        #expect(failure.problems.count == 1, "\(failure)")
        #expect(failure.problems.first?.line == line, "\(failure)")
        #expect(failure.problems.first?.message.contains(says) == true, "\(failure)")
    }

    static let (a, b, c) = ("NOU3WYMHOVZQ4Q2T", "HHQ5P4QJWF4W4XCA", "GEZDGNBVGY3TQOJQ")
    /// (name, the file's bytes, the line both must refuse, or nil when both accept it)
    static let readerCases: [(String, [UInt8], Int?)] = {
        let text: [(String, String, Int?)] = [
            ("a lone CR ends a line (an old Mac's file)", "guest_id,name\r\(a),Ada\r\(b),Bob\r", nil),
            ("CR, LF and CRLF mixed", "guest_id,name\r\n\(a),Ada\n\(b),Bob\r\(c),Cy\r\n", nil),
            ("a BOM and blank lines", "\u{FEFF}guest_id,name\n\n\(a),Ada\r\n\r\n\(b),Bob\n", nil),
            ("a quoted name over two lines", "guest_id,name\n\(a),\"Ada\rLovelace\"\n\(b),Bob\n", nil),
            ("text after a closing quote", "guest_id,name\r\(a),\"Ada\"x\n", 2),
            ("a quote inside an unquoted field", "guest_id,name\n\(a),A\"da\n", 2),
            ("a quoted field never closed", "guest_id,name\n\(a),\"Ada\n\(b),Bob\n", 2),
            ("a NUL byte", "guest_id,name\n\(a),Ada\u{0}\n", 2),
        ]
        var cases: [(String, [UInt8], Int?)] = text.map { ($0.0, Array($0.1.utf8), $0.2) }
        let latin1: [UInt8] = Array("guest_id,name\r\(a),Ada\r\(b),M".utf8) + [0xFC] + Array("ller\n".utf8)
        cases.append(("Latin-1 bytes on the third line", latin1, 3))
        cases.append(("UTF-16", [0xFF, 0xFE, UInt8(ascii: "g"), 0], 1))
        return cases
    }()

    /// Files the two readers used to disagree on (the server's own reader took a lone CR as a line break and
    /// text after a closing quote as part of the field; the kiosk's the other way round): one reader now, so
    /// the server's import and the kiosk's roster import accept and refuse alike, naming the same line.
    @Test(
        "the server's guest import and the kiosk's roster import read a file alike",
        arguments: Self.readerCases)
    func oneReaderForServerAndKiosk(_ name: String, _ bytes: [UInt8], _ badLine: Int?) throws {
        let server = GuestCSV.parse(bytes: bytes)
        let kiosk = Result { () throws(RosterImportError) in
            try RosterCSV.guests(from: bytes, tenant: TenantID(1), event: EventID(1))
        }
        switch (server, kiosk) {
        case (.success(let guests), .success(let roster)):
            #expect(badLine == nil, "\(name): accepted")
            #expect(guests.map(\.name) == roster.map(\.name), "\(name)")
            #expect(!guests.isEmpty, "\(name)")
        case (.failure(let failure), .failure(let error)):
            #expect(failure.problems.first?.line == badLine, "\(name): \(failure)")
            #expect(error.line == badLine, "\(name): \(error)")
        default:
            Issue.record("\(name): the server read \(server), the kiosk \(kiosk)")
        }
    }
}
