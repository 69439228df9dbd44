// libFuzzer entry point for the roster CSV reader (`CSVReader`, `RosterCSV`). Built by `Fuzz/run.sh roster-csv`
// against fuzz builds of KioskCore and KioskStore (swiftc -sanitize=fuzzer,address), not by SwiftPM.

import KioskCore

@testable import CSVReading
@testable import KioskCSV
@testable import PassFormat

/// The records as CSV with every field quoted, which the reader must read back unchanged. Quotes are doubled
/// byte by byte: as a `Character`, a quote followed by a combining mark is not `"`.
private func quotedCSV(_ records: [CSVReader.Record]) -> String {
    let quote = UInt8(ascii: "\"")
    var bytes: [UInt8] = []
    for (r, record) in records.enumerated() {
        if r > 0 { bytes += Array("\r\n".utf8) }
        for (f, field) in record.fields.enumerated() {
            if f > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(quote)
            for byte in field.utf8 { bytes += byte == quote ? [quote, quote] : [byte] }
            bytes.append(quote)
        }
    }
    return String(decoding: bytes, as: UTF8.self)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func rosterCSVFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    // Lines end with LF, CRLF or a lone CR (a file from an old Mac), as the reader counts them.
    let bytes = Array(text.utf8)
    let lineCount = bytes.indices.count(where: { CSVReader.endsLine(bytes, at: $0) }) + 1
    if let records = try? CSVReader.records(in: text) {
        // Records start on increasing lines that exist, and survive a write with every field quoted.
        let lines = records.map(\.line)
        guard lines == lines.sorted(), Set(lines).count == lines.count,
            lines.allSatisfy({ (1...lineCount).contains($0) })
        else {
            fatalError("records on impossible lines: \(lines) of \(lineCount)")
        }
        guard let again = try? CSVReader.records(in: quotedCSV(records)),
            again.map(\.fields) == records.map(\.fields)
        else {
            fatalError("records changed when written with quotes and read back")
        }
    }
    do {
        let guests = try RosterCSV.guests(from: text, tenant: TenantID(7), event: EventID(4711))
        guard Set(guests.map(\.guest)).count == guests.count,
            guests.allSatisfy({ !$0.name.isEmpty && $0.partySize >= 1 && $0.tenant == TenantID(7) })
        else {
            fatalError("import accepted a guest that breaks the roster's rules")
        }
    } catch {
        guard (1...lineCount).contains(error.line), !error.problem.isEmpty else {
            fatalError("error on a line that does not exist: \(error) of \(lineCount)")
        }
    }
    return 0
}
