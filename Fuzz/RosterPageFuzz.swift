// libFuzzer entry point for the kiosk's hand-written roster page reader (`RosterPage(json:)`), which reads
// what the network sends. Built by `Fuzz/run.sh roster-page`, linked against WireAPI.

import WireAPI

import struct Foundation.Data

@_cdecl("LLVMFuzzerTestOneInput")
public func rosterPageFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    guard let page = try? RosterPage(json: bytes) else { return 0 }
    // What was read is written back by the server's own writer and read again unchanged.
    guard let again = try? RosterPage(json: Data(page.encodedJSON())) else {
        fatalError("a page read could not be read back from its own JSON")
    }
    guard again == page else { fatalError("a page changed when written and read back") }
    return 0
}
