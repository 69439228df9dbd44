import CheckinCore
import Foundation
import GRDB
import PassFormat

/// A guest as roster pages and deltas read it: what a kiosk sees of the row, and its place in the change
/// sequence. A page of 500 rows is read by column index, each index looked up by the column's name once per
/// statement: `GuestRow`'s Codable decoding converted every column name of every row from snake case, and took
/// most of the server's CPU in a 100,000-guest download.
struct RosterRow {
    var id: String
    var name: String
    var email: String?
    var phone: String?
    var partySize: Int
    var ticketType: String?
    var checkInNote: String?
    var arrivalAlert: String?
    var status: String
    var version: Int64
    var changeSeq: Int64

    /// The columns the rows are read from, for the query's select list.
    static let selection = """
        id, name, email, phone, party_size, access_type, check_in_note, arrival_alert, status, version, change_seq
        """

    /// The rows of `sql` (which selects `selection` from `guest`).
    static func fetchAll(_ db: Database, sql: String, arguments: StatementArguments) throws -> [RosterRow] {
        let statement = try db.cachedStatement(sql: sql)
        let index = try ColumnIndexes(statement)
        var rows: [RosterRow] = []
        let cursor = try Row.fetchCursor(statement, arguments: arguments)
        while let row = try cursor.next() {
            rows.append(
                RosterRow(
                    id: row[index.id], name: row[index.name], email: row[index.email], phone: row[index.phone],
                    partySize: row[index.partySize], ticketType: row[index.ticketType],
                    checkInNote: row[index.checkInNote], arrivalAlert: row[index.arrivalAlert],
                    status: row[index.status], version: row[index.version], changeSeq: row[index.changeSeq]))
        }
        return rows
    }

    func guest(event: EventID, checkIn: CheckInSummary?) -> Guest {
        Guest(
            id: GuestID(text: id)!, event: event, name: name, email: email, phone: phone, partySize: partySize,
            ticketType: ticketType, checkInNote: checkInNote, arrivalAlert: arrivalAlert,
            status: GuestState(rawValue: status) ?? .active, version: version, checkIn: checkIn)
    }

    /// Where each column of `selection` is in the statement's result.
    struct ColumnIndexes {
        let id, name, email, phone, partySize, ticketType, checkInNote, arrivalAlert, status, version, changeSeq: Int

        init(_ statement: Statement) throws {
            func index(_ column: String) throws -> Int {
                guard let index = statement.index(ofColumn: column) else {
                    throw DatabaseError(message: "the roster query has no column \(column): \(statement.sql)")
                }
                return index
            }
            id = try index("id")
            name = try index("name")
            email = try index("email")
            phone = try index("phone")
            partySize = try index("party_size")
            ticketType = try index("access_type")
            checkInNote = try index("check_in_note")
            arrivalAlert = try index("arrival_alert")
            status = try index("status")
            version = try index("version")
            changeSeq = try index("change_seq")
        }
    }
}
