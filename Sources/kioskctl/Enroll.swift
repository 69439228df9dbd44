import ArgumentParser
import Foundation
import KioskRuntime
import KioskStore
import KioskSync

struct Enroll: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Enrol this kiosk with a check-in server: redeem a one-time code, keep the token in the database.",
        discussion: """
            The organizer makes the code (checkin-server enrolment-code --event N). The device token is stored in \
            the kiosk's database, not in kiosk.conf; set 'server' (and 'server_ca') in kiosk.conf so the kiosk syncs.
            """)

    @Option(help: "The kiosk's configuration file.")
    var config = "kiosk.conf"

    @Option(help: "The check-in server's URL, e.g. https://checkin.example:8443.")
    var server: String

    @Option(
        help:
            "The one-time enrolment code. Left out: read from --code-file, else from standard input (kept out of the process list and shell history)."
    )
    var code: String?

    @Option(name: .customLong("code-file"), help: "A file holding the one-time enrolment code.")
    var codeFile: String?

    @Option(
        name: .customLong("retry-for"),
        help: "Seconds to keep trying while the server cannot be reached or the answer is lost (same code, same nonce)."
    )
    var retryFor: Int = 60

    @Option(name: .customLong("ca-file"), help: "The PEM file of the CA that signed the server's certificate.")
    var caFile: String?

    func validate() throws {
        do {
            try ServerAddress.check(server)
        } catch {
            throw ValidationError("--server: \(error.message); \(error.advice)")
        }
        guard (0...3600).contains(retryFor) else { throw ValidationError("--retry-for must be from 0 to 3600 seconds") }
        if code != nil && codeFile != nil { throw ValidationError("give --code or --code-file, not both") }
    }

    /// The code from --code, --code-file or standard input, trimmed.
    func readCode() throws -> String {
        var text: String
        if let code {
            text = code
        } else if let codeFile {
            do {
                text = try String(contentsOfFile: codeFile, encoding: .utf8)
            } catch {
                throw ValidationError("cannot read the enrolment code from \(codeFile): \(error.localizedDescription)")
            }
        } else {
            if isatty(STDIN_FILENO) != 0 {
                FileHandle.standardError.write(Data("enrolment code: ".utf8))
            }
            text = readLine(strippingNewline: true) ?? ""
        }
        text = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty, text.count <= 200 else {
            throw ValidationError("no enrolment code: give --code, --code-file, or type it on standard input")
        }
        return text
    }

    func run() async throws {
        let settings = try ConfigurationFile.load(config)
        let path = settings.resolve(settings.database)
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        let code = try readCode()
        let store = try SQLiteDoorStore(configuration: settings, mode: .createIfMissing)
        let ca = caFile.map { $0.hasPrefix("/") ? $0 : FileManager.default.currentDirectoryPath + "/" + $0 }
        let enrolment = try await Enrolling.enroll(
            store: store, serverURL: server, code: code, door: settings.door, event: settings.event, caFile: ca,
            retryFor: .seconds(retryFor)
        ) { error, wait in
            FileHandle.standardError.write(
                Data(
                    "\(error.operation): \(error.message); trying again in \(wait.components.seconds) s with the same code\n"
                        .utf8))
        }
        print(enrolment.deviceID)
        FileHandle.standardError.write(
            Data(
                "enrolled door \(settings.door) as device \(enrolment.deviceID) of tenant \(enrolment.tenant) at \(enrolment.serverURL); the token is in \(path)\n"
                    .utf8))
        // The first roster download, now: until it completes, scans get roster_incomplete.
        do {
            let report = try await SyncOnce.refreshRoster(configuration: settings, store: store)
            FileHandle.standardError.write(Data("\(report)\n".utf8))
        } catch {
            FileHandle.standardError.write(
                Data(
                    "the roster download did not finish (\(error)); the kiosk finishes it when the server is reachable, or run kioskctl roster refresh\n"
                        .utf8))
        }
    }
}
