import Foundation
import KioskCore
import TestSupport
import Testing
import WireAPI

@testable import CheckinServerCommands

/// Backups of the server's database made while live kiosks upload, brought back by `restore`; a kiosk's queue
/// carried to the server in a file.
@Suite("Backups and queue exports", .serialized)
struct BackupLiveTests {
    /// Two live kiosks upload while scans keep coming in; a backup is made after every ten scans. Each backup
    /// holds every check-in a kiosk had had acknowledged (it left the kiosk's queue) before the backup started,
    /// and nothing the server did not end with; a restored backup serves the same export.
    @Test(
        "a backup made while kiosks upload holds every check-in acknowledged before it, and restores",
        .enabled(if: LiveProcesses.toolsPresent, "needs openssl and curl"))
    func backupWhileKiosksUpload() async throws {
        let server = try await EndToEndSyncTests.server()
        defer { server.stopWithoutWaiting() }
        let doors = [
            try await LiveKioskFolder(door: "North", server: server),
            try await LiveKioskFolder(door: "South", server: server),
        ]
        for door in doors {
            _ = try await EndToEndSyncTests.enroll(door, server)
            try door.runWithoutFrames()
        }
        let kiosks = try doors.map { try $0.startKiosk() }
        defer {
            for kiosk in kiosks { kiosk.terminateWithoutWaiting() }
        }
        let guests = Array(try EndToEndSyncTests.roster().prefix(120))
        let base = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - 900).rounded())
        let backups = LiveProcesses.temporaryFolder()
        var taken: [(file: String, acknowledged: Set<String>)] = []
        // One scan at each door first, uploaded before the rest begin: both kiosks are up and syncing, so the
        // backups below are made while their uploads go on, however slowly the machine started them.
        for index in 0..<2 {
            try doors[index].scanOffline([guests[index]], at: [base.addingTimeInterval(Double(index))])
        }
        var pending = 2
        for _ in 0..<600 where pending > 0 {  // up to 60 s
            try await Task.sleep(for: .milliseconds(100))
            pending = try doors.map { try $0.pending() }.reduce(0, +)
        }
        try #require(pending == 0, "the kiosks did not upload their first scans")
        for (index, guest) in guests.enumerated().dropFirst(2) {
            try doors[index % 2].scanOffline([guest], at: [base.addingTimeInterval(Double(index))])
            try await Task.sleep(for: .milliseconds(25))
            if index % 10 == 9 {
                // Acknowledged: scanned and no longer queued at its kiosk, before the backup starts.
                let scanned = Set(guests.prefix(index + 1).map(\.text))
                let acknowledged = scanned.subtracting(try Self.queued(doors))
                let file = backups + "/backup-\(taken.count).db"
                let made = await CheckinServerCommand.run([
                    "backup", "--database", server.folder + "/checkin.db", "--to", file,
                ])
                try #require(made.status == 0, "\(made.err)")
                #expect(made.out == file + "\n")
                #expect(made.err.contains("check-ins"), "\(made.err)")
                #expect(PrivateFileMode.of(file) == 0o600)
                taken.append((file, acknowledged))
            }
        }
        pending = 1
        for _ in 0..<300 where pending > 0 {  // up to 30 s
            try await Task.sleep(for: .milliseconds(100))
            pending = try doors.map { try $0.pending() }.reduce(0, +)
        }
        #expect(pending == 0)
        let final = Set(try await EndToEndSyncTests.export(server).filter { $0.record == "check_in" }.map(\.guestId))
        #expect(final == Set(guests.map(\.text)))
        #expect(taken.contains { !$0.acknowledged.isEmpty && $0.acknowledged.count < guests.count })

        for backup in taken {
            let held = try await Self.checkIns(inBackup: backup.file, secretsFrom: server.folder)
            #expect(backup.acknowledged.isSubset(of: held), "\(backup.file): \(backup.acknowledged.subtracting(held))")
            #expect(held.isSubset(of: final))
        }

        // A backup is never overwritten.
        let again = await CheckinServerCommand.run([
            "backup", "--database", server.folder + "/checkin.db", "--to", taken[0].file,
        ])
        #expect(again.status != 0 && again.err.contains("exists"), "\(again.err)")
    }

    /// `restore` checks the backup before it writes anything: a file that is no database, a backup sealed under
    /// another secrets key, an existing database without --replace are each refused with what to do.
    @Test("restore refuses what it cannot bring back and leaves the database as it was")
    func restoreRefusals() async throws {
        let folder = LiveProcesses.temporaryFolder()
        let database = folder + "/checkin.db"
        #expect(
            await CheckinServerCommand.run(["create-tenant", "--name", "Acme", "--database", database]).status == 0)
        let backup = folder + "/backup.db"
        #expect(await CheckinServerCommand.run(["backup", "--database", database, "--to", backup]).status == 0)

        let garbage = folder + "/garbage.db"
        try Data(repeating: 0x41, count: 8192).write(to: URL(fileURLWithPath: garbage))
        let other = LiveProcesses.temporaryFolder()
        let notADatabase = await CheckinServerCommand.run([
            "restore", "--from", garbage, "--database", other + "/checkin.db",
        ])
        #expect(
            notADatabase.status != 0 && notADatabase.err.contains("is not an SQLite database"), "\(notADatabase.err)")
        #expect(!FileManager.default.fileExists(atPath: other + "/checkin.db"))

        // Another folder: another secrets key beside the database.
        let wrongKey = await CheckinServerCommand.run([
            "restore", "--from", backup, "--database", other + "/checkin.db",
        ])
        #expect(wrongKey.status != 0 && wrongKey.err.contains("sealed with key"), "\(wrongKey.err)")

        let exists = await CheckinServerCommand.run(["restore", "--from", backup, "--database", database])
        #expect(exists.status != 0 && exists.err.contains("give --replace"), "\(exists.err)")

        // The database moves on; --replace brings back the backup's state.
        #expect(
            await CheckinServerCommand.run(["create-tenant", "--name", "Later", "--database", database]).out == "2\n")
        let restored = await CheckinServerCommand.run([
            "restore", "--from", backup, "--database", database, "--replace",
        ])
        #expect(restored.status == 0, "\(restored.err)")
        #expect(PrivateFileMode.of(database) == 0o600)
        // The next tenant is number 2 again: the one made after the backup is gone.
        #expect(
            await CheckinServerCommand.run(["create-tenant", "--name", "Again", "--database", database]).out == "2\n")
    }

    /// A kiosk that cannot reach the server: its queue exported to a file, imported on the server, then the
    /// kiosk comes back and uploads the same items: each check-in is on the server once.
    @Test(
        "a kiosk's queue export imported on the server, then uploaded by the kiosk: each check-in once",
        .enabled(if: LiveProcesses.toolsPresent, "needs openssl and curl"))
    func queueExportImport() async throws {
        let server = try await EndToEndSyncTests.server()
        defer { server.stopWithoutWaiting() }
        let north = try await LiveKioskFolder(door: "North", server: server)
        let device = try await EndToEndSyncTests.enroll(north, server)
        let guests = Array(try EndToEndSyncTests.roster().prefix(70))
        let base = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - 900).rounded())
        try north.scanOffline(guests, at: guests.indices.map { base.addingTimeInterval(Double($0)) })

        let file = north.folder + "/queue.json"
        let exported = try await north.kioskctl(["queue", "export", "--to", file])
        #expect(exported.status == 0, "\(exported.err)")
        #expect(exported.err.contains("exported 70 queued items"), "\(exported.err)")
        #expect(PrivateFileMode.of(file) == 0o600)
        #expect(try north.pending() == 70, "nothing leaves the queue")
        let twice = try await north.kioskctl(["queue", "export", "--to", file])
        #expect(twice.status != 0 && twice.err.contains("exists"), "\(twice.err)")

        #expect(
            try await server.admin(["import-queue", "--file", file])
                == "70 applied, 0 superseded, 0 rejected, 0 already there")
        #expect(
            try await server.admin(["import-queue", "--file", file])
                == "0 applied, 0 superseded, 0 rejected, 70 already there")
        let synced = try await north.kioskctl(["sync"])
        #expect(synced.status == 0, "\(synced.err)")
        #expect(synced.out.contains("70 confirmed, 0 superseded, 0 rejected; 0 pending"), "\(synced.out)")
        let checkIns = try await EndToEndSyncTests.export(server).filter { $0.record == "check_in" }
        #expect(checkIns.count == 70)
        #expect(Set(checkIns.map(\.guestId)) == Set(guests.map(\.text)))
        #expect(checkIns.allSatisfy { $0.deviceId == device })
        let audit = try await server.admin(["audit", "--limit", "5"])
        #expect(audit.contains("queue_imported"), "\(audit)")

        // A file edited by hand is refused whole.
        var text = try String(contentsOfFile: file, encoding: .utf8)
        text = text.replacingOccurrences(of: "\"format\":\"checkin-queue-export/1\"", with: "\"format\":\"v9\"")
        let edited = north.folder + "/edited.json"
        try text.write(toFile: edited, atomically: true, encoding: .utf8)
        let refused = await CheckinServerCommand.run([
            "import-queue", "--file", edited, "--database", server.folder + "/checkin.db",
        ])
        #expect(refused.status != 0 && refused.err.contains("format 'v9'"), "\(refused.err)")
    }

    /// The guests whose check-ins are still queued at the kiosks.
    static func queued(_ doors: [LiveKioskFolder]) throws -> Set<String> {
        var guests = Set<String>()
        for door in doors {
            for item in try door.openStore().pendingCheckIns(limit: 10_000) { guests.insert(item.checkIn.guest.text) }
        }
        return guests
    }

    /// The guests with a check-in in the backup, read by the server's own export after a restore of it into a
    /// folder of its own (with the server's secrets key, which the backup does not hold).
    static func checkIns(inBackup file: String, secretsFrom serverFolder: String) async throws -> Set<String> {
        let folder = LiveProcesses.temporaryFolder()
        try FileManager.default.copyItem(
            atPath: serverFolder + "/checkin-secrets.key", toPath: folder + "/checkin-secrets.key")
        let restored = await CheckinServerCommand.run(["restore", "--from", file, "--database", folder + "/checkin.db"])
        try #require(restored.status == 0, "\(restored.err)")
        // A server of that folder, never started: its admin commands read the restored database.
        let lines = try await EndToEndSyncTests.export(LiveServer(folder: folder))
        return Set(lines.filter { $0.record == "check_in" }.map(\.guestId))
    }
}

/// The permission bits of a file, nil when it does not exist.
enum PrivateFileMode {
    static func of(_ path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? nil
    }
}
