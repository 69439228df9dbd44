import GrayImage
import ImageFiles
import KioskCore
import KioskDecoding

/// `kioskctl decode FILE...`: the kiosk's own decoder on image files, printed as zbarimg prints.
public enum FileDecoding {
    public struct Outcome {
        /// `QR-Code:<text>` lines (prefixed with `FILE:` when several files were given), in UTF-8: each code's
        /// payload as text, as zxing-cpp renders it (`KioskDecoder.text(of:in:)`: a Shift JIS or ECI code's text
        /// converted, not its raw bytes).
        public var lineBytes: [[UInt8]] = []
        /// The same lines as text.
        public var lines: [String] { lineBytes.map { String(decoding: $0, as: UTF8.self) } }
        /// One message per file that could not be read.
        public var errors: [String] = []
        /// 0 if any code was read, 4 if none, 2 if a file could not be read.
        public var exitCode: Int32 = 4
    }

    public static func run(files: [String], settings: DecoderSettings = DecoderSettings()) -> Outcome {
        let decoder = KioskDecoder(settings: settings)
        var outcome = Outcome()
        var found = false
        for file in files {
            let frame: GrayFrame
            do {
                frame = try ImageFile.read(path: file)
            } catch {
                outcome.errors.append("\(error)")
                continue
            }
            for code in decoder.everyCode(in: frame) {
                found = true
                let prefix = files.count > 1 ? "\(file):QR-Code:" : "QR-Code:"
                outcome.lineBytes.append(Array((prefix + decoder.text(of: code.payload, in: frame)).utf8))
            }
        }
        outcome.exitCode = !outcome.errors.isEmpty ? 2 : (found ? 0 : 4)
        return outcome
    }
}
