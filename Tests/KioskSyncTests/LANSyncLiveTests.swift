import Foundation
import KioskCore
import KioskStore
import PassFormat
import TestSupport
import Testing
import WireAPI

/// Doors that know each other without the internet (docs/SYNC.md, "Between doors"): three live kiosks of one
/// event, enrolled with a real server, find each other by multicast on the loopback interface and link by mutual
/// TLS. With the server gone, a pass admitted at North is "already checked in at North" at South; when the server
/// is back, every scan reaches it once.
@Suite("Doors on the LAN", .serialized)
struct LANSyncLiveTests {
    /// What a kiosk's text display wrote so far, read as it comes.
    final class Screen: @unchecked Sendable {
        let pipe = Pipe()
        private let lock = NSLock()
        private var text = ""

        init() {
            pipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
                let data = handle.availableData
                guard let self else { return }
                self.lock.withLock { self.text += String(decoding: data, as: UTF8.self) }
            }
        }

        /// Everything written so far (NSLock guards `text`).
        var shown: String { lock.withLock { text } }
    }

    /// A live door of the LAN test: its folder, kiosk process, keyboard and screen.
    struct Door {
        let folder: LiveKioskFolder
        let process: Process
        let keyboard: Pipe
        let screen: Screen

        func type(_ text: String) { keyboard.fileHandleForWriting.write(Data(text.utf8)) }

        func linked() throws -> Set<String> {
            Set(try folder.openStore().peerSightings().filter(\.linked).map(\.door))
        }

        func checkIn(_ guest: GuestID) throws -> CheckIn? {
            try folder.openStore().checkIns(event: EventID(1)).first { $0.guest == guest }
        }

        /// Stops the kiosk and returns what its screen showed.
        func stop() async -> String {
            process.terminate()
            await process.waitUntilExit()
            try? await Task.sleep(for: .milliseconds(200))
            screen.pipe.fileHandleForReading.readabilityHandler = nil
            return screen.shown
        }
    }

    /// Turns the LAN on in a test kiosk's kiosk.conf: any free port, multicast on loopback on `discoveryPort`,
    /// and the server's signing keys trusted (its peer credentials are signed with them).
    static func joinLAN(_ folder: LiveKioskFolder, discoveryPort: Int, keys: String) throws {
        let path = folder.folder + "/kiosk.conf"
        var conf = try String(contentsOfFile: path, encoding: .utf8)
        conf = conf.replacingOccurrences(of: "lan_sync = off", with: "lan_sync = on")
        conf += "\nlan_port = 0\nlan_interface = 127.0.0.1\nlan_discovery_port = \(discoveryPort)\n\(keys)\n"
        try conf.write(toFile: path, atomically: true, encoding: .utf8)
    }

    @Test(
        "with the server gone, a pass admitted at North is already checked in at South; after the heal the server has it once",
        .enabled(if: LiveProcesses.toolsPresent, "needs openssl and curl"))
    func doorsAgreeWithoutTheServer() async throws {
        let server = try await EndToEndSyncTests.server()
        defer { server.stopWithoutWaiting() }
        let discoveryPort = Int.random(in: 20000...60000)
        var folders: [LiveKioskFolder] = []
        for name in ["North", "South", "East"] {
            let folder = try await LiveKioskFolder(door: name, server: server)
            _ = try await EndToEndSyncTests.enroll(folder, server)
            folders.append(folder)
        }
        let keys = try await server.admin(["signing-keys", "--tenant", "1"])
        var doors: [Door] = []
        for folder in folders {
            try Self.joinLAN(folder, discoveryPort: discoveryPort, keys: keys)
            try folder.runWithoutFrames()
            let keyboard = Pipe()
            let screen = Screen()
            doors.append(
                Door(
                    folder: folder, process: try folder.startKiosk(screen: screen.pipe, keyboard: keyboard),
                    keyboard: keyboard, screen: screen))
        }
        defer { for door in doors { door.process.terminateWithoutWaiting() } }
        let (north, south, east) = (doors[0], doors[1], doors[2])

        // Each door links with the two others.
        let allLinked = try await eventually(every: .milliseconds(100)) {
            try north.linked() == ["South", "East"] && south.linked() == ["North", "East"]
                && east.linked() == ["North", "South"]
        }
        if !allLinked {
            let screen = await north.stop()
            Issue.record("North did not link: \(screen.suffix(4000))")
            return
        }
        #expect(
            try await eventually(every: .milliseconds(100)) {
                try north.linked() == ["South", "East"] && south.linked() == ["North", "East"]
                    && east.linked() == ["North", "South"]
            }, "links: \((try? north.linked()) ?? []), \((try? south.linked()) ?? []), \((try? east.linked()) ?? [])")

        // The uplink goes: the server stops, and the doors say so, with the doors they still exchange with.
        await server.stop()
        #expect(
            try await eventually(every: .milliseconds(100)) {
                doors.allSatisfy { $0.screen.shown.contains("| OFFLINE | LAN: 2 doors |") }
            }, "\(south.screen.shown.suffix(2000))")
        let roster = try EndToEndSyncTests.roster()
        let (guest, other) = (roster[5], roster[6])
        north.type(guest.text + "\n")
        #expect(try await eventually(every: .milliseconds(100)) { try south.checkIn(guest)?.door == "North" })
        #expect(try await eventually(every: .milliseconds(100)) { try east.checkIn(guest)?.door == "North" })
        // South, a moment later: already checked in at North. Its own guest reaches the others too.
        south.type(guest.text + "\n")
        south.type(other.text + "\n")
        #expect(try await eventually(every: .milliseconds(100)) { try north.checkIn(other)?.door == "South" })

        // The uplink is back: each door uploads its own scans only.
        try await server.start()
        #expect(
            try await eventually(every: .milliseconds(100)) {
                try north.folder.pending() == 0 && south.folder.pending() == 0
            })
        let southScreen = await south.stop()
        _ = await north.stop()
        _ = await east.stop()
        #expect(southScreen.contains("ALREADY CHECKED IN"), "\(southScreen.suffix(3000))")
        #expect(southScreen.contains("at North"), "\(southScreen.suffix(3000))")

        let lines = try await EndToEndSyncTests.export(server)
        let checkIns = lines.filter { $0.record == "check_in" }
        #expect(checkIns.filter { $0.guestId == guest.text }.map(\.door) == ["North"], "\(checkIns)")
        #expect(checkIns.filter { $0.guestId == other.text }.map(\.door) == ["South"], "\(checkIns)")
        let events = lines.filter { $0.record == "check_in_event" }
        #expect(events.count == 2, "one scan each, uploaded once by the door that made it: \(events)")
    }
}
