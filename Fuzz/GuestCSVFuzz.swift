// libFuzzer entry point for the server's guest CSV import (`GuestCSV.parse`), which reads what an organizer
// uploads. Built by `Fuzz/run.sh guest-csv` against fuzz builds of CheckinCore, KioskCSV and KioskCore.

import CheckinCore

@_cdecl("LLVMFuzzerTestOneInput")
public func guestCSVFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    // Lines end with LF, CRLF or a lone CR (a file from an old Mac), as the reader counts them.
    let bytes = Array(text.utf8)
    var lineCount = 1
    for (i, byte) in bytes.enumerated() {
        if byte == UInt8(ascii: "\n")
            || (byte == UInt8(ascii: "\r") && bytes.dropFirst(i + 1).first != UInt8(ascii: "\n"))
        {
            lineCount += 1
        }
    }
    switch GuestCSV.parse(text) {
    case .success(let guests):
        // Every guest has a name, a party of at least one, and a code of its own.
        guard guests.allSatisfy({ !$0.name.isEmpty && $0.partySize >= 1 }),
            Set(guests.map(\.id)).count == guests.count
        else {
            fatalError("the import accepted a guest that breaks the roster's rules")
        }
    case .failure(let failure):
        // Each problem names a line the file has, and says something.
        guard !failure.problems.isEmpty,
            failure.problems.allSatisfy({ (1...lineCount).contains($0.line) && !$0.message.isEmpty })
        else {
            fatalError("a problem on a line that does not exist: \(failure) of \(lineCount)")
        }
    }
    return 0
}
