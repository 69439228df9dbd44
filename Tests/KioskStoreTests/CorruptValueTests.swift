import GRDB
import KioskCore
import Testing

@testable import KioskStore

@Suite("Values the store never writes")
struct CorruptValueTests {
    @Test(
        "a value the store never writes is reported as corruption, naming the file and the read",
        arguments: StoreKind.allCases)
    func badSource(_ kind: StoreKind) throws {
        let db = try TestDatabase(kind)
        let store = try db.open()
        try store.database.write { db in
            try db.execute(
                sql: """
                    INSERT INTO check_ins (event, guest_id, door, at, arrived, source)
                    VALUES (42, 'not-a-code', 'North door', 0, 1, 'camera')
                    """)
        }
        let error = storeError { _ = try store.checkIns(event: Fixture.event) }
        #expect(error?.kind == .corrupt)
        #expect(error?.path == store.path)
        #expect(error?.operation == "reading check-ins")
        #expect(
            error?.description.hasPrefix(
                "\(store.path) is corrupt (reading check-ins: guest_id 'not-a-code' is not a guest code") == true)
    }
}
