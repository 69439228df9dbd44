import ArgumentParser
import Foundation
import KioskCore
import KioskRuntime

struct Decode: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Decode QR codes in PNG, JPEG or binary PGM files with exactly the kiosk's decoder.",
        discussion: """
            Prints 'QR-Code:<text>' per code (as zbarimg does; the text as zxing-cpp renders it, a Shift JIS or ECI code's text converted to UTF-8); with several files each line starts with \
            the file name and a colon. Exit status: 0 if any code was read, 4 if none, 2 if a file could \
            not be read, 1 if the configuration is broken (its file, line and problem are printed). With --config, the cascade that kiosk.conf sets (decoder_passes, decoder_max_side); \
            without it, the kiosk's default cascade.
            """)

    @Option(help: "A kiosk.conf whose decoder settings to use (decoder_passes, decoder_max_side).")
    var config: String?

    @Argument(help: "Image files.")
    var files: [String]

    func run() throws {
        let settings = try config.map { try ConfigurationFile.load($0).decoder } ?? DecoderSettings()
        let outcome = FileDecoding.run(files: files, settings: settings)
        for line in outcome.lineBytes { FileHandle.standardOutput.write(Data(line + [0x0A])) }
        for error in outcome.errors { FileHandle.standardError.write(Data("kioskctl decode: \(error)\n".utf8)) }
        if outcome.exitCode != 0 { throw ExitCode(outcome.exitCode) }
    }
}
