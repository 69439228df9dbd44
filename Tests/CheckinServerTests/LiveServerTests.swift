import CheckinCore
import CheckinServer
import DedicatedThreads
import Foundation
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing
import WireAPI

/// Once over a real socket: enrol, download, upload, heartbeat against SQLite on a file.
@Suite("Live server")
struct LiveServerTests {
    @Test func aKioskSessionOverLoopback() async throws {
        let h = try await Harness(.sqliteFile)
        let (_, event, guests) = try await h.event(guests: 600)
        // The server's tasks on threads of their own: tests blocking pool threads beside it cannot starve it.
        try await withTaskExecutorPreference(ThreadExecutor.testServers) { try await self.session(h, event, guests) }
    }

    func session(_ h: Harness, _ event: Event, _ guests: [Guest]) async throws {
        try await h.app().test(.live) { client in
            let device = try await client.enrol(h, event: event.id)
            let first = try await client.roster("", event: event.id, as: device)
            let last = try await client.roster("?page=\(first.nextPage!)", event: event.id, as: device)
            #expect(first.guests.count + last.guests.count == 600)
            #expect(last.complete)
            let answer = try await client.upload(
                [device.item(1, guest: guests[9], at: h.clock.now())], event: event.id, as: device)
            #expect(answer.outcomes.map(\.outcome) == [.applied])
            let delta = try await client.roster("?changesSince=\(first.changeCursor!)", event: event.id, as: device)
            #expect(delta.guests.map(\.id) == [guests[9].id.text])
            #expect(delta.guests[0].checkIn?.door == "North")
        }
    }
}
