import CSVReading
import Foundation
import KioskCore
import PassFormat
import SignedRecords

/// A roster file that cannot be loaded: the line and what is wrong with it.
public typealias RosterImportError = CSVLineError

/// The roster CSV format: a header row naming the columns (any order, any case), then one guest a row.
///
/// | column     | required | default  | value                                   |
/// |------------|----------|----------|-----------------------------------------|
/// | guest_id   | yes      |          | the 16-character code (dashes allowed)  |
/// | name       | yes      |          | not empty                               |
/// | email      | no       | ""       |                                         |
/// | party_size | no       | 1        | a whole number from 1 to 999            |
/// | status     | no       | active   | active or cancelled                     |
/// | notes      | no       | ""       |                                         |
public enum RosterCSV {
    public static let columns = ["guest_id", "name", "email", "party_size", "status", "notes"]
    public static let requiredColumns = ["guest_id", "name"]

    public static func guests(from text: String, tenant: TenantID, event: EventID) throws(RosterImportError)
        -> [RosterGuest]
    {
        try guests(from: Array(text.utf8), tenant: tenant, event: event)
    }

    /// The guests of a roster file's bytes: they must be UTF-8 text (see `CSVReader.checkText`).
    public static func guests(
        from bytes: [UInt8], tenant: TenantID,
        event: EventID
    ) throws(RosterImportError) -> [RosterGuest] {
        let records = try CSVReader.records(in: bytes)
        guard let header = records.first else { throw RosterImportError(line: 1, problem: "the file is empty") }
        let index = try columnIndex(header)

        var guests: [RosterGuest] = []
        var firstLine: [GuestID: Int] = [:]
        for record in records.dropFirst() {
            guard record.fields.count == header.fields.count else {
                throw RosterImportError(
                    line: record.line,
                    problem: "\(record.fields.count) fields, but the header "
                        + "has \(header.fields.count) (a comma in a value needs quotes)")
            }
            func field(_ column: String) -> String? { index[column].map { record.fields[$0] } }
            let guest = try guest(line: record.line, field: field, tenant: tenant, event: event)
            if let earlier = firstLine.updateValue(record.line, forKey: guest.guest) {
                throw RosterImportError(
                    line: record.line,
                    problem: "guest_id \(guest.guest) already appears on "
                        + "line \(earlier)")
            }
            guests.append(guest)
        }
        return guests
    }

    private static func columnIndex(_ header: CSVReader.Record) throws(RosterImportError) -> [String: Int] {
        var index: [String: Int] = [:]
        for (position, raw) in header.fields.enumerated() {
            let name = raw.trimmingCharacters(in: .whitespaces).lowercased()
            guard columns.contains(name) else {
                throw RosterImportError(
                    line: header.line,
                    problem: "unknown column '\(raw)' (the columns are "
                        + columns.joined(separator: ", ") + ")")
            }
            guard index.updateValue(position, forKey: name) == nil else {
                throw RosterImportError(line: header.line, problem: "column '\(name)' appears twice")
            }
        }
        for name in requiredColumns where index[name] == nil {
            throw RosterImportError(line: header.line, problem: "no '\(name)' column in the header")
        }
        return index
    }

    private static func guest(
        line: Int, field: (String) -> String?, tenant: TenantID,
        event: EventID
    ) throws(RosterImportError) -> RosterGuest {
        let code = field("guest_id")?.trimmingCharacters(in: .whitespaces) ?? ""
        guard let id = GuestID(text: code) else {
            throw RosterImportError(line: line, problem: "guest_id '\(code)' is not a 16-character guest code")
        }
        let name = field("name")?.trimmingCharacters(in: .whitespaces) ?? ""
        guard !name.isEmpty else { throw RosterImportError(line: line, problem: "name is empty") }

        var partySize = 1
        if let text = field("party_size")?.trimmingCharacters(in: .whitespaces), !text.isEmpty {
            let sizes = RosterGuest.partySizes
            guard let size = Int(text), sizes.contains(size) else {
                throw RosterImportError(
                    line: line,
                    problem:
                        "party_size '\(text)' is not a whole number from \(sizes.lowerBound) to \(sizes.upperBound)")
            }
            partySize = size
        }
        var status = RosterGuest.Status.active
        if let text = field("status")?.trimmingCharacters(in: .whitespaces), !text.isEmpty {
            guard let parsed = RosterGuest.Status(rawValue: text.lowercased()) else {
                throw RosterImportError(line: line, problem: "status '\(text)' is not active or cancelled")
            }
            status = parsed
        }
        let email = field("email")?.trimmingCharacters(in: .whitespaces) ?? ""
        return RosterGuest(
            guest: id, tenant: tenant, event: event, name: name, email: email, partySize: partySize,
            status: status, notes: field("notes") ?? "")
    }
}
