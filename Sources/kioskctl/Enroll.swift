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

    @Option(help: "The one-time enrolment code.")
    var code: String

    @Option(name: .customLong("ca-file"), help: "The PEM file of the CA that signed the server's certificate.")
    var caFile: String?

    func validate() throws {
        guard server.lowercased().hasPrefix("https://") || server.lowercased().hasPrefix("http://") else {
            throw ValidationError("--server must be a URL such as https://checkin.example:8443, found '\(server)'")
        }
    }

    func run() async throws {
        let settings = try ConfigurationFile.load(config)
        let path = settings.resolve(settings.database)
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        let store = try SQLiteDoorStore(path: path, mode: .createIfMissing)
        let ca = caFile.map { $0.hasPrefix("/") ? $0 : FileManager.default.currentDirectoryPath + "/" + $0 }
        let enrolment = try await Enrolling.enroll(
            store: store, serverURL: server, code: code, door: settings.door, event: settings.event, caFile: ca)
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
