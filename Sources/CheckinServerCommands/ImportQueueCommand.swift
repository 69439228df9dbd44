import ArgumentParser
import Foundation
import WireAPI

/// `checkin-server import-queue --file FILE`: a kiosk's queue export applied as its own upload would be.
struct ImportQueue: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import-queue",
        abstract: "Apply a kiosk's queue export (kioskctl queue export): each check-in once, under the kiosk's keys.",
        discussion: """
            For a kiosk that cannot reach the server. The items are applied in scan order by the upload's rules \
            (the earliest corrected scan wins); a file imported twice, or also uploaded by the kiosk later, \
            changes nothing the second time. Prints the counts of applied, superseded and rejected items.
            """)
    @OptionGroup var options: DatabaseOption
    @Option(help: "The export file.") var file: String

    func run() async throws {
        guard let data = FileManager.default.contents(atPath: file) else {
            throw ValidationError("cannot read \(file): give the file that kioskctl queue export wrote")
        }
        let export: QueueExport
        do {
            export = try QueueExport.decode(data)
        } catch {
            throw ValidationError("\(file) is \(error)")
        }
        let report = try await withAdmin(options) { try await $0.importQueue(export) }
        CommandIO.value(
            "\(report.applied) applied, \(report.superseded) superseded, \(report.rejected) rejected, "
                + "\(report.alreadyApplied) already there")
        let reasons = report.reasons.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
        note(
            "imported \(export.items.count) items of device \(report.deviceId) (door \(report.door)) into event "
                + "\(export.event)" + (reasons.isEmpty ? "" : "; rejected: " + reasons.joined(separator: ", "))
                + (report.deviceRevoked ? "; note: the device is revoked" : ""))
    }
}
