// libFuzzer entry point for the kiosk.conf parser (`KioskConfiguration.parse`). Built by `Fuzz/run.sh config`
// against the fuzz build of KioskCore (swiftc -sanitize=fuzzer,address), not by SwiftPM.

@testable import KioskCore

@_cdecl("LLVMFuzzerTestOneInput")
public func configParserFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let text = String(decoding: bytes, as: UTF8.self)
    let lineCount = lines(in: bytes)
    do {
        let configuration = try KioskConfiguration.parse(text, file: "fuzz.conf", baseDirectory: "/etc/kiosk")
        // What parses must satisfy the checks the parser promises.
        guard !configuration.trustedKeys.isEmpty, configuration.activeFPS >= configuration.idleFPS,
            configuration.trustedKeys.allSatisfy({ (1...lineCount).contains($0.line) }),
            Set(configuration.trustedKeys.map(\.id)).count == configuration.trustedKeys.count,
            !configuration.decoder.passes.isEmpty
        else {
            fatalError("parse accepted a configuration that breaks its own rules")
        }
        // Parsing is a pure function of the text.
        guard (try? KioskConfiguration.parse(text, file: "fuzz.conf", baseDirectory: "/etc/kiosk")) == configuration
        else {
            fatalError("parsing the same text twice gave different results")
        }
    } catch {
        // Every error names the file and a line that exists (0: the file as a whole).
        guard error.file == "fuzz.conf", (0...lineCount).contains(error.line), !error.message.isEmpty else {
            fatalError("error with a bad location: \(error)")
        }
    }
    return 0
}

/// Lines as editors count them: LF, CRLF and a lone CR each end one (counted on the bytes, independently of the
/// parser; a Character split would take CRLF for one character that is not "\n").
private func lines(in bytes: UnsafeBufferPointer<UInt8>) -> Int {
    var count = 1
    var previousWasCR = false
    for byte in bytes {
        if byte == 0x0A && previousWasCR {
            previousWasCR = false
            continue
        }
        if byte == 0x0A || byte == 0x0D { count += 1 }
        previousWasCR = byte == 0x0D
    }
    return count
}
