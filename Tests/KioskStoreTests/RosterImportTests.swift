import CSVReading
import KioskCore
import SignedRecords
import Testing

@testable import KioskCSV
@testable import KioskStore

@Suite("Importing a roster CSV")
struct RosterImportTests {
    private let a = Fixture.id(1), b = Fixture.id(2), c = Fixture.id(3)

    private func importError(_ store: SQLiteDoorStore, _ csv: String) -> RosterImportError? {
        do {
            _ = try store.importRoster(csv: csv, tenant: Fixture.tenant, event: Fixture.event)
            return nil
        } catch {
            return error as? RosterImportError
        }
    }

    @Test(
        "quoted fields keep commas, doubled quotes and line breaks; missing columns take defaults",
        arguments: StoreKind.allCases)
    func quotedFields(_ kind: StoreKind) throws {
        let db = try TestDatabase(kind)
        let store = try db.open()
        // Columns in another order than usual, no status column, CRLF line ends, a dashed code.
        let csv =
            "name,Guest_ID,party_size,notes,email\r\n"
            + "\"Smith, Anna\",\(a.displayCode),2,\"said \"\"hi\"\"\",anna@example.org\r\n"
            + "Bob Jones,\(b.text),,\"wheelchair,\nramp at side door\",\r\n"
            + "\"\",\(c.text),1,,\r\n"
        let error = importError(store, csv)
        #expect(
            error == RosterImportError(line: 5, problem: "name is empty"),
            "the second record spans lines 3-4, so the third starts on line 5")
        #expect(try store.guestCount(event: Fixture.event) == 0, "a bad file loads nothing")

        let good = String(csv.dropLast("\"\",\(c.text),1,,\r\n".count))
        #expect(try store.importRoster(csv: good, tenant: Fixture.tenant, event: Fixture.event) == 2)
        let anna = RosterGuest(
            guest: a, tenant: Fixture.tenant, event: Fixture.event, name: "Smith, Anna",
            email: "anna@example.org", partySize: 2, status: .active, notes: "said \"hi\"")
        let bob = RosterGuest(
            guest: b, tenant: Fixture.tenant, event: Fixture.event, name: "Bob Jones",
            email: "", partySize: 1, status: .active, notes: "wheelchair,\nramp at side door")
        #expect(try store.lookUp(guest: a, event: Fixture.event) == .admissible(anna))
        #expect(try store.lookUp(guest: b, event: Fixture.event) == .admissible(bob))
        #expect(try store.searchGuests(prefix: "anna", event: Fixture.event, limit: 5) == [anna])
    }

    @Test("a bad guest code names its line, and nothing is loaded", arguments: StoreKind.allCases)
    func badGuestCode(_ kind: StoreKind) throws {
        let db = try TestDatabase(kind)
        let store = try db.open()
        var lines = ["guest_id,name,email,party_size,status,notes"]
        for n in 1...15 { lines.append("\(Fixture.id(UInt8(n)).text),Guest \(n),,1,active,") }
        lines.append("XYZ,Bad Guest,,1,active,")  // line 17
        let error = importError(store, lines.joined(separator: "\n") + "\n")

        #expect(error?.description == "line 17: guest_id 'XYZ' is not a 16-character guest code")
        #expect(try store.guestCount(event: Fixture.event) == 0)
    }

    @Test("the status column loads cancelled guests", arguments: StoreKind.allCases)
    func statusColumn(_ kind: StoreKind) throws {
        let db = try TestDatabase(kind)
        let store = try db.open()
        let csv = "guest_id,name,status\n\(a.text),Ann,Cancelled\n\(b.text),Ben,active"  // no final line break
        #expect(try store.importRoster(csv: csv, tenant: Fixture.tenant, event: Fixture.event) == 2)
        guard case .cancelled(let ann?) = try store.lookUp(guest: a, event: Fixture.event) else {
            Issue.record("Ann should be cancelled")
            return
        }
        #expect(ann.name == "Ann")
        guard case .admissible = try store.lookUp(guest: b, event: Fixture.event) else {
            Issue.record("Ben should be admissible")
            return
        }
    }

    @Test(
        "each kind of bad row or header is reported with its line",
        arguments: [
            ("name\nAnn", "line 1: no 'guest_id' column in the header"),
            (
                "guest_id,name,emial\n",
                "line 1: unknown column 'emial' (the columns are guest_id, name, email, party_size, status, notes)"
            ),
            ("guest_id,name,name\n", "line 1: column 'name' appears twice"),
            ("", "line 1: the file is empty"),
            (
                "guest_id,name\nAEAQCAIBAEAQCAIB,Ann,extra",
                "line 2: 3 fields, but the header has 2 (a comma in a value needs quotes)"
            ),
            (
                "guest_id,name,party_size\nAEAQCAIBAEAQCAIB,Ann,0",
                "line 2: party_size '0' is not a whole number from 1 to 999"
            ),
            (
                "guest_id,name,party_size\nAEAQCAIBAEAQCAIB,Ann,two",
                "line 2: party_size 'two' is not a whole number from 1 to 999"
            ),
            (
                "guest_id,name,party_size\nAEAQCAIBAEAQCAIB,Ann,9223372036854775807",
                "line 2: party_size '9223372036854775807' is not a whole number from 1 to 999"
            ),
            ("guest_id,name,status\nAEAQCAIBAEAQCAIB,Ann,gone", "line 2: status 'gone' is not active or cancelled"),
            (
                "guest_id,name\nAEAQCAIBAEAQCAIB,Ann\n\nAEAQCAIBAEAQCAIB,Ann again",
                "line 4: guest_id AEAQCAIBAEAQCAIB already appears on line 2"
            ),
            ("guest_id,name\nAEAQCAIBAEAQCAIB,\"Ann\n", "line 2: a quoted field is never closed"),
            ("guest_id,name\nAEAQCAIBAEAQCAIB,\"Ann\"x", "line 2: text after the closing quote of a field"),
            (
                "guest_id,name\nAEAQCAIBAEAQCAIB,An\"n",
                "line 2: a quote (\") inside a field that does not start with one: put the whole field in quotes and double the quote"
            ),
        ])
    func badRows(_ csv: String, _ message: String) throws {
        let store = try SQLiteDoorStore(path: SQLiteDoorStore.inMemory, mode: .createIfMissing)
        #expect(importError(store, csv)?.description == message)
        #expect(try store.guestCount(event: Fixture.event) == 0)
    }

    private func importError(_ store: SQLiteDoorStore, bytes: [UInt8]) -> RosterImportError? {
        do {
            _ = try store.importRoster(csvBytes: bytes, tenant: Fixture.tenant, event: Fixture.event)
            return nil
        } catch {
            return error as? RosterImportError
        }
    }

    @Test("a NUL byte in a field is refused with its line, and nothing is loaded", arguments: StoreKind.allCases)
    func nulByte(_ kind: StoreKind) throws {
        let db = try TestDatabase(kind)
        let store = try db.open()
        let csv = Array("guest_id,name\n\(a.text),Ann\n\(b.text),Bob".utf8) + [0] + Array("by\n".utf8)
        let error = importError(store, bytes: csv)
        #expect(error?.line == 3)
        #expect(
            error?.description == "line 3: a NUL byte (0x00) at byte 21 of the line: this is not plain text; "
                + "export the roster again as CSV (UTF-8)")
        #expect(try store.guestCount(event: Fixture.event) == 0)
        // Also through the String entry point (a Swift String may hold NUL).
        #expect(importError(store, "guest_id,name\n\(a.text),A\u{0}nn\n")?.line == 2)
    }

    @Test("a Latin-1 roster is refused with its line and advice, never stored altered", arguments: StoreKind.allCases)
    func latin1(_ kind: StoreKind) throws {
        let db = try TestDatabase(kind)
        let store = try db.open()
        // "Müller" in Latin-1: ü is the single byte 0xFC.
        let csv = Array("guest_id,name\n\(a.text),Ann\n\(b.text),M".utf8) + [0xFC] + Array("ller\n".utf8)
        let error = importError(store, bytes: csv)
        #expect(error?.line == 3)
        #expect(error?.problem.hasPrefix("byte 0xFC at byte 19 of the line is not UTF-8") == true)
        #expect(error?.problem.contains("save the file as UTF-8") == true)
        #expect(try store.guestCount(event: Fixture.event) == 0)

        // The same name in UTF-8 loads as written.
        let utf8 = Array("guest_id,name\n\(a.text),Ann\n\(b.text),Müller\n".utf8)
        #expect(try store.importRoster(csvBytes: utf8, tenant: Fixture.tenant, event: Fixture.event) == 2)
        #expect(try store.searchGuests(prefix: "mull", event: Fixture.event, limit: 5).map(\.name) == ["Müller"])
    }

    @Test(
        "bad encodings are named by line",
        arguments: [
            ([0xFF, 0xFE] + Array("g".utf8), 1, "the file is UTF-16 text: save it as UTF-8"),
            (
                Array("guest_id,name\nAEAQCAIBAEAQCAIB,\"M".utf8) + [0xC3] + Array("\n\"\n".utf8), 2,
                "byte 0xC3 at byte 20"
            ),
            (Array("guest_id,name\nAEAQCAIBAEAQCAIB,\"A\nB".utf8) + [0xE9, 0x22], 3, "byte 0xE9 at byte 2"),
        ])
    func encodings(_ bytes: [UInt8], _ line: Int, _ phrase: String) throws {
        let store = try SQLiteDoorStore(path: SQLiteDoorStore.inMemory, mode: .createIfMissing)
        let error = importError(store, bytes: bytes)
        #expect(error?.line == line)
        #expect(error?.problem.contains(phrase) == true, "\(String(describing: error))")
    }

    @Test("the reader handles a byte order mark, blank lines and a last line without a line break")
    func reader() throws {
        let records = try CSVReader.records(in: "\u{FEFF}a,b\r\n\r\n\"x\"\"y\",\"\"\n\nlast,")
        #expect(records.map(\.line) == [1, 3, 5])
        #expect(records.map(\.fields) == [["a", "b"], ["x\"y", ""], ["last", ""]])
    }
}
