// libFuzzer entry point for the server's hand-written upload reader (`CheckInBatch(json:)`), which reads what every
// enrolled device sends, and for JSONDecoder, which decides what it refuses. Built by `Fuzz/run.sh upload-json`,
// linked against WireAPI. The reader recursed into unknown values with no limit (a body of
// nested `[` overflowed the stack); it now refuses nesting past `JSONReader.maximumDepth`.

import Foundation
import WireAPI

@_cdecl("LLVMFuzzerTestOneInput")
public func uploadJSONFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let raw = UnsafeRawBufferPointer(start: data, count: size)
    guard let batch = try? CheckInBatch(json: raw) else {
        // What the direct reader refuses goes to JSONDecoder, as the server sends it: an error, never a crash.
        _ = try? APICoding.decoder().decode(CheckInBatch.self, from: Data(raw))
        return 0
    }
    // A batch read is written by the API's encoder and read again unchanged, by both readers.
    guard let encoded = try? APICoding.encoder().encode(batch) else { fatalError("a batch read cannot be written") }
    guard let again = try? encoded.withUnsafeBytes({ try CheckInBatch(json: $0) }), again == batch else {
        fatalError("a batch changed when written and read back: \(String(decoding: encoded, as: UTF8.self))")
    }
    guard (try? APICoding.decoder().decode(CheckInBatch.self, from: encoded)) == batch else {
        fatalError("JSONDecoder reads another batch than the direct reader")
    }
    return 0
}
