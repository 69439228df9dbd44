import CSVReading
import Foundation
import PassFormat

/// Guests from CSV (RFC 4180: quoted fields, doubled quotes, commas and line breaks inside quotes), read by the
/// kiosk's own reader (`CSVReader`), so a file means the same on the server and at a door: UTF-8 only (Latin-1,
/// Windows-1252, UTF-16 and NUL bytes are refused with their line), lines ending in LF, CRLF or a lone CR.
///
/// The first line names the columns: `name` is required; `guest_id` (or `code`), `email`, `phone`,
/// `party_size`, `ticket_type` (or its older name `access_type`), `notes` (or `check_in_note`), `arrival_alert` and `status` (`active` or `cancelled`)
/// are optional. A missing or empty `guest_id` gets a random one. Every bad line is reported with its number
/// (the line where its record starts), and then nothing is imported.
public enum GuestCSV {
    public struct Problem: Error, Equatable, Sendable, CustomStringConvertible {
        public var line: Int
        public var message: String

        public init(line: Int, message: String) {
            self.line = line
            self.message = message
        }

        public var description: String { "line \(line): \(message)" }
    }

    public static let columns: Set<String> = [
        "guest_id", "code", "name", "email", "phone", "party_size", "ticket_type", "access_type", "notes",
        "check_in_note",
        "arrival_alert", "status",
    ]

    /// The guests of `text`, or every problem found.
    public static func parse(_ text: String) -> Result<[NewGuest], ParseFailure> { parse(bytes: Array(text.utf8)) }

    /// The guests of a file's bytes as uploaded, or every problem found.
    public static func parse(bytes: [UInt8]) -> Result<[NewGuest], ParseFailure> {
        parseRows(bytes: bytes).map { rows in rows.map(\.guest) }
    }

    /// A guest of the file and whether its line gave the guest's id (else the id is a new random one).
    public struct Row: Equatable, Sendable {
        public var guest: NewGuest
        public var idGiven: Bool
    }

    /// The rows of a file's bytes as uploaded, or every problem found.
    public static func parseRows(bytes: [UInt8]) -> Result<[Row], ParseFailure> {
        if let kind = notCSV(bytes) {
            return .failure(
                ParseFailure(problems: [
                    Problem(
                        line: 1,
                        message:
                            "this is not a CSV file: it looks like \(kind); export the guest list as CSV (in a spreadsheet: "
                            + "CSV UTF-8) and import that file")
                ]))
        }
        let records: [CSVReader.Record]
        do {
            records = try CSVReader.records(in: bytes)
        } catch {
            return .failure(ParseFailure(problems: [Problem(line: error.line, message: error.problem)]))
        }
        guard let header = records.first else {
            return .failure(
                ParseFailure(problems: [
                    Problem(
                        line: 1,
                        message:
                            "the file is empty; the first line must name the columns, e.g. guest_id,name,email,party_size"
                    )
                ]))
        }
        let names = header.fields.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        if names.count == 1, names[0].contains(";") {
            return .failure(
                ParseFailure(problems: [
                    Problem(
                        line: header.line,
                        message:
                            "the columns are separated by semicolons (;), not commas: save the file as CSV with commas "
                            + "(in a spreadsheet: CSV UTF-8, comma-delimited) and import it again")
                ]))
        }
        guard records.count > 1 else {
            return .failure(
                ParseFailure(problems: [
                    Problem(
                        line: header.line,
                        message:
                            "the file has a header line and no guest after it: nothing to import; "
                            + "add one guest per line")
                ]))
        }
        var problems: [Problem] = []
        for name in names where !columns.contains(name) {
            problems.append(
                Problem(
                    line: header.line,
                    message: "unknown column '\(name)'; known: \(columns.sorted().joined(separator: ", "))"))
        }
        guard names.contains("name") else {
            problems.append(Problem(line: header.line, message: "no 'name' column"))
            return .failure(ParseFailure(problems: problems))
        }
        var guests: [Row] = []
        var seen: [GuestID: Int] = [:]
        for record in records.dropFirst() {
            guard record.fields.count == names.count else {
                problems.append(
                    Problem(line: record.line, message: "\(record.fields.count) fields, the header has \(names.count)"))
                continue
            }
            var value: [String: String] = [:]
            for (name, field) in zip(names, record.fields) {
                let trimmed = field.trimmingCharacters(in: .whitespaces)
                if !trimmed.isEmpty { value[name] = trimmed }
            }
            guard let name = value["name"] else {
                problems.append(Problem(line: record.line, message: "the name is empty"))
                continue
            }
            var guest = NewGuest(name: name)
            let idGiven = (value["guest_id"] ?? value["code"]) != nil
            if let code = value["guest_id"] ?? value["code"] {
                guard let id = GuestID(text: code) else {
                    problems.append(
                        Problem(
                            line: record.line, message: "'\(code)' is not a guest id (16 base32 characters A-Z, 2-7)"))
                    continue
                }
                if let first = seen[id] {
                    problems.append(Problem(line: record.line, message: "guest id \(id.text) is also on line \(first)"))
                    continue
                }
                seen[id] = record.line
                guest.id = id
            }
            if let party = value["party_size"] {
                guard let n = Int(party), (1...99).contains(n) else {
                    problems.append(
                        Problem(line: record.line, message: "party_size '\(party)' is not a number from 1 to 99"))
                    continue
                }
                guest.partySize = n
            }
            if let status = value["status"] {
                guard let state = GuestState(rawValue: status.lowercased()) else {
                    problems.append(
                        Problem(line: record.line, message: "status '\(status)' is not active or cancelled"))
                    continue
                }
                guest.status = state
            }
            guest.email = value["email"]
            guest.phone = value["phone"]
            // `access_type` is the column's name from before ticket types (issue 51).
            guest.ticketType = value["ticket_type"] ?? value["access_type"]
            guest.checkInNote = value["notes"] ?? value["check_in_note"]
            guest.arrivalAlert = value["arrival_alert"]
            if let problem = GuestFields.problem(
                name: name, email: guest.email, phone: guest.phone, ticketType: guest.ticketType,
                note: guest.checkInNote, arrivalAlert: guest.arrivalAlert)
            {
                problems.append(Problem(line: record.line, message: problem))
                continue
            }
            guests.append(Row(guest: guest, idGiven: idGiven))
        }
        return problems.isEmpty ? .success(guests) : .failure(ParseFailure(problems: problems))
    }

    public struct ParseFailure: Error, Equatable, Sendable, CustomStringConvertible {
        public var problems: [Problem]
        public var description: String { problems.map(\.description).joined(separator: "\n") }
    }

    /// What a file that is not text plainly is (an image, a PDF, a spreadsheet workbook), from its first bytes.
    static func notCSV(_ bytes: [UInt8]) -> String? {
        let signatures: [(bytes: [UInt8], kind: String)] = [
            ([0x89, 0x50, 0x4E, 0x47], "a PNG image"), ([0xFF, 0xD8, 0xFF], "a JPEG image"),
            (Array("GIF8".utf8), "a GIF image"), (Array("%PDF".utf8), "a PDF document"),
            ([0x50, 0x4B, 0x03, 0x04], "a spreadsheet workbook or another ZIP archive (.xlsx, .ods)"),
            ([0xD0, 0xCF, 0x11, 0xE0], "an old Excel workbook (.xls)"),
        ]
        return signatures.first { bytes.starts(with: $0.bytes) }?.kind
    }
}
