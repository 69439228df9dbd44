// libFuzzer entry point for the kiosk.conf parser (`KioskConfiguration.parse`). Built by `Fuzz/run.sh config`
// against the fuzz build of KioskCore (swiftc -sanitize=fuzzer,address), not by SwiftPM.

@testable import KioskCore

@_cdecl("LLVMFuzzerTestOneInput")
public func configParserFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let lineCount = text.split(separator: "\n", omittingEmptySubsequences: false).count
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
