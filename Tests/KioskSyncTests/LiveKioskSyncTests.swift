import Foundation
import KioskCore
import Testing

/// The live `kiosk` (its service group, with the sync worker because kiosk.conf names a server) uploads what
/// was queued while the server was away, and its status line says online.
@Suite("The live kiosk's sync worker")
struct LiveKioskSyncTests {
    @Test(
        "a live kiosk uploads its queue by itself and shows online",
        .enabled(if: LiveProcesses.toolsPresent, "needs openssl and curl"))
    func liveKioskUploads() async throws {
        let server = try await EndToEndSyncTests.server()
        defer { server.stopWithoutWaiting() }
        let north = try await LiveKioskFolder(door: "North", server: server)
        _ = try await EndToEndSyncTests.enroll(north, server)
        let guests = Array(try EndToEndSyncTests.roster().prefix(60))
        let base = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - 900).rounded())
        try north.scanOffline(guests, at: guests.indices.map { base.addingTimeInterval(Double($0)) })
        try north.runWithoutFrames()

        let err = Pipe()
        let kiosk = try north.startKiosk(screen: err)
        var pending = 60
        for _ in 0..<200 where pending > 0 {  // up to 20 s
            try await Task.sleep(for: .milliseconds(100))
            pending = try north.pending()
        }
        try await Task.sleep(for: .milliseconds(500))
        kiosk.terminate()
        let written = await err.fileHandleForReading.readDataToEndOfFile()
        let screen = String(decoding: written, as: UTF8.self)
        await kiosk.waitUntilExit()
        #expect(pending == 0, "\(screen.suffix(2000))")
        #expect(screen.contains("| online | 0 pending"), "\(screen.suffix(2000))")
        let checkIns = try await EndToEndSyncTests.export(server).filter { $0.record == "check_in" }
        #expect(checkIns.count == 60)
    }
}
