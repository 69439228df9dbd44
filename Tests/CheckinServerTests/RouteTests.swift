import CheckinCore
import CheckinServer
import Foundation
import Hummingbird
import HummingbirdTesting
import KioskCore
import PassFormat
import PostgresTestSupport
import Testing
import WireAPI

@testable import CheckinAdmin

/// The API in process (`app.test(.router)`), on every repository implementation.
@Suite("API routes", .dropsTestDatabases)
struct RouteTests {
    @Test(arguments: RepositoryFactory.all)
    func enrolmentCodeIsOneUseAndExpires(_ factory: RepositoryFactory) async throws {
        let h = try await Harness(factory)
        let (tenant, event, _) = try await h.event()
        try await h.app().test(.router) { client in
            let code = try await h.admin.createEnrolmentCode(event: event.id).code
            let request = try Harness.json(
                EnrolmentRequest(code: code.lowercased(), door: "North", kioskVersion: "1.0.0"))
            let enrolment = try await client.execute(uri: "/v1/enrolments/redeem", method: .post, body: request) {
                response throws in
                #expect(response.status == .ok)
                return try Harness.decode(Enrolment.self, response.body)
            }
            #expect(enrolment.tenantId == tenant.id.rawValue)
            #expect(enrolment.events.map(\.id) == [event.id.rawValue])
            #expect(enrolment.serverTime == h.clock.now())
            // Only the token's hash is kept.
            #expect(
                try await h.repository.device(tokenHash: Secrets.hash(token: enrolment.token))?.id == enrolment.deviceId
            )
            #expect(try await h.repository.device(tokenHash: enrolment.token) == nil)

            try await client.execute(uri: "/v1/enrolments/redeem", method: .post, body: request) { response throws in
                #expect(response.status == .gone)
                #expect(try Harness.decode(APIError.self, response.body).code == "code_used")
            }
            let old = try await h.admin.createEnrolmentCode(event: event.id).code
            h.clock.advance(by: 24 * 3600 + 1)
            try await client.execute(
                uri: "/v1/enrolments/redeem", method: .post,
                body: Harness.json(EnrolmentRequest(code: old, door: "N", kioskVersion: "1.0.0"))
            ) { response throws in
                #expect(response.status == .gone)
                #expect(try Harness.decode(APIError.self, response.body).code == "code_expired")
            }
            try await client.execute(
                uri: "/v1/enrolments/redeem", method: .post,
                body: Harness.json(EnrolmentRequest(code: "AAAA-BBBB-CCCC-DDDD", door: "N", kioskVersion: "1.0.0"))
            ) { response throws in
                #expect(response.status == .notFound)
                #expect(try Harness.decode(APIError.self, response.body) == .notFound)
            }
        }
    }

    @Test(arguments: RepositoryFactory.all)
    func badOrRevokedTokenIs401(_ factory: RepositoryFactory) async throws {
        let h = try await Harness(factory)
        let (tenant, event, _) = try await h.event()
        try await h.app().test(.router) { client in
            let device = try await client.enrol(h, event: event.id)
            try await client.execute(uri: "/v1/events/\(event.id)", method: .get, headers: device.headers) {
                response throws in
                #expect(response.status == .ok)
                let info = try Harness.decode(EventInfo.self, response.body)
                #expect(info.name == "Gala")
            }
            for headers: HTTPFields in [[:], [.authorization: "Bearer kt_WRONG"], [.authorization: "Basic abc"]] {
                try await client.execute(uri: "/v1/events/\(event.id)", method: .get, headers: headers) {
                    response throws in
                    #expect(response.status == .unauthorized)
                    #expect(try Harness.decode(APIError.self, response.body).code == "unauthorized")
                }
            }
            try await h.repository.revokeDevice(device.id, tenant: tenant.id, at: h.clock.now())
            try await client.execute(uri: "/v1/events/\(event.id)", method: .get, headers: device.headers) {
                response throws in
                #expect(response.status == .unauthorized)
            }
        }
    }

    @Test(arguments: RepositoryFactory.all)
    func anotherTenantsEventAnswersLikeNothingAndIsAudited(_ factory: RepositoryFactory) async throws {
        let h = try await Harness(factory)
        let (tenantA, eventA, guestsA) = try await h.event(tenantName: "A")
        let (_, eventB, _) = try await h.event(tenantName: "B")
        try await h.app().test(.router) { client in
            let deviceA = try await client.enrol(h, event: eventA.id)
            var bodies: [String] = []
            for uri in [
                "/v1/events/\(eventB.id)", "/v1/events/999999", "/v1/events/\(eventB.id)/roster",
                "/v1/events/999999/roster",
            ] {
                try await client.execute(uri: uri, method: .get, headers: deviceA.headers) { response throws in
                    #expect(response.status == .notFound, "\(uri)")
                    bodies.append(String(buffer: response.body))
                }
            }
            let item = deviceA.item(1, guest: guestsA[0], at: h.clock.now())
            try await client.execute(
                uri: "/v1/events/\(eventB.id)/check-ins", method: .post, headers: deviceA.headers,
                body: Harness.json(CheckInBatch(items: [item]))
            ) { response throws in
                #expect(response.status == .notFound)
                bodies.append(String(buffer: response.body))
            }
            #expect(Set(bodies).count == 1)
            #expect(try Harness.decode(APIError.self, ByteBuffer(string: bodies[0])) == .notFound)
            let audit = try await h.repository.auditEntries(tenant: tenantA.id, limit: 50)
            #expect(audit.filter { $0.action == "cross_tenant" && $0.device == deviceA.id }.count == 3)
            #expect(audit.filter { $0.action == "not_found" }.count == 2)
            #expect(try await h.repository.checkInEvents(event: eventB.id).isEmpty)
        }
    }

    @Test(arguments: RepositoryFactory.all)
    func firstDownloadOf1200GuestsInPagesOf500ResumesFromAPageCursor(_ factory: RepositoryFactory) async throws {
        let h = try await Harness(factory)
        let (_, event, _) = try await h.event(guests: 1_200)
        try await h.app().test(.router) { client in
            let device = try await client.enrol(h, event: event.id)
            let first = try await client.roster("", event: event.id, as: device)
            #expect(first.guests.count == 500)
            #expect(first.total == 1_200)
            #expect(!first.complete)
            #expect(first.changeCursor != nil)
            #expect(first.serverTime == h.clock.now())
            // The connection drops after page 2; the kiosk resumes with the cursor it stored with page 2.
            let second = try await client.roster("?page=\(first.nextPage!)", event: event.id, as: device)
            let resumed = try await client.roster("?page=\(second.nextPage!)", event: event.id, as: device)
            #expect(resumed.guests.count == 200)
            #expect(resumed.complete)
            #expect(resumed.nextPage == nil)
            #expect(Set((first.guests + second.guests + resumed.guests).map(\.id)).count == 1_200)
            try await client.execute(
                uri: "/v1/events/\(event.id)/roster?limit=501", method: .get, headers: device.headers
            ) { response throws in
                #expect(response.status == .badRequest)
            }
            try await client.execute(
                uri: "/v1/events/\(event.id)/roster?page=garbage", method: .get, headers: device.headers
            ) { response throws in
                #expect(response.status == .badRequest)
                #expect(try Harness.decode(APIError.self, response.body).code == RosterPage.unknownCursor)
            }
        }
    }

    @Test(arguments: RepositoryFactory.all)
    func deltaAfterCancelAndWalkIn(_ factory: RepositoryFactory) async throws {
        let h = try await Harness(factory)
        let (_, event, guests) = try await h.event(guests: 5)
        try await h.app().test(.router) { client in
            let device = try await client.enrol(h, event: event.id)
            let cursor = try await client.roster("", event: event.id, as: device).changeCursor!
            _ = try await h.admin.cancelGuest(guests[2].id.displayCode, event: event.id)
            let walkIn = try await h.admin.addGuest(GuestInput(name: "Late Comer", partySize: 2), event: event.id)
            let delta = try await client.roster("?changesSince=\(cursor)", event: event.id, as: device)
            #expect(delta.complete)
            #expect(delta.guests.map(\.id) == [guests[2].id.text, walkIn.id.text])
            #expect(delta.guests[0].status == .cancelled)
            #expect(delta.guests[1].partySize == 2)
            let empty = try await client.roster("?changesSince=\(delta.changeCursor!)", event: event.id, as: device)
            #expect(empty.guests.isEmpty)
        }
    }

    @Test(arguments: RepositoryFactory.all)
    func sameBatchTwiceGivesTheSameOutcomesAndOneCheckIn(_ factory: RepositoryFactory) async throws {
        let h = try await Harness(factory)
        let (_, event, guests) = try await h.event()
        try await h.app().test(.router) { client in
            let device = try await client.enrol(h, event: event.id)
            let t = h.clock.now()
            let items = [
                device.item(1, guest: guests[0], at: t), device.item(2, guest: guests[1], at: t.addingTimeInterval(5)),
                device.item(3, guest: guests[0], kind: .reconfirm, at: t.addingTimeInterval(9)),
            ]
            let first = try await client.upload(items, event: event.id, as: device)
            h.clock.advance(by: 30)
            let second = try await client.upload(items, event: event.id, as: device)
            #expect(first.outcomes == second.outcomes)
            #expect(first.outcomes.map(\.outcome) == [.applied, .applied, .recorded])
            #expect(first.outcomes.map(\.sequence) == [1, 2, 3])
            #expect(second.serverTime == h.clock.now())
            #expect(try await h.repository.checkIns(event: event.id).count == 2)
            #expect(try await h.repository.checkInEvents(event: event.id).count == 3)
            // More than 50 is refused as a whole.
            let tooMany = (1...51).map { device.item(Int64(100 + $0), guest: guests[2], at: t) }
            try await client.execute(
                uri: "/v1/events/\(event.id)/check-ins", method: .post, headers: device.headers,
                body: Harness.json(CheckInBatch(items: tooMany))
            ) { response throws in
                #expect(response.status == .badRequest)
            }
        }
    }

    @Test(arguments: RepositoryFactory.all)
    func twoDoorsTheEarliestCorrectedScanWinsEvenIfItArrivesSecond(_ factory: RepositoryFactory) async throws {
        let h = try await Harness(factory)
        let (_, event, guests) = try await h.event()
        try await h.app().test(.router) { client in
            let north = try await client.enrol(h, event: event.id, door: "North")
            let south = try await client.enrol(h, event: event.id, door: "South")
            let t = h.clock.now()
            // South scanned at 17:02 and was online; North scanned at 17:01 offline and uploads later.
            let southAnswer = try await client.upload(
                [south.item(1, guest: guests[0], at: t.addingTimeInterval(120), door: "South")],
                event: event.id, as: south)
            #expect(southAnswer.outcomes[0].outcome == .applied)
            h.clock.advance(by: 600)
            let northAnswer = try await client.upload(
                [north.item(1, guest: guests[0], at: t.addingTimeInterval(60), door: "North")],
                event: event.id, as: north)
            #expect(northAnswer.outcomes[0].outcome == .applied)
            #expect(northAnswer.outcomes[0].checkIn?.door == "North")
            // A third scan, later, at South: superseded, told where and when the guest came in.
            let third = try await client.upload(
                [south.item(2, guest: guests[0], at: t.addingTimeInterval(300), door: "South")],
                event: event.id, as: south)
            #expect(third.outcomes[0].outcome == .superseded)
            #expect(
                third.outcomes[0].checkIn
                    == WireAPI.CheckInSummary(
                        door: "North", at: t.addingTimeInterval(60), arrived: 1, deviceId: north.id, sequence: 1))
            let checkIns = try await h.repository.checkIns(event: event.id)
            #expect(checkIns.count == 1)
            #expect(checkIns[0].door == "North")
            #expect(try await h.repository.checkInEvents(event: event.id).count == 3)
            // South learns North's check-in from the roster.
            let roster = try await client.roster("", event: event.id, as: south)
            #expect(roster.guests.first { $0.id == guests[0].id.text }?.checkIn?.door == "North")
        }
    }

    @Test(arguments: RepositoryFactory.all)
    func clockOffsetCorrectsScanTimesAndKeepsTheDevicesOwn(_ factory: RepositoryFactory) async throws {
        let h = try await Harness(factory)
        let (_, event, guests) = try await h.event()
        try await h.app().test(.router) { client in
            let device = try await client.enrol(h, event: event.id)
            let t = h.clock.now()
            // A kiosk five minutes fast, reporting its offset in the heartbeat.
            let beat = Heartbeat(
                door: "North", kioskVersion: "1.0.0", pending: 2, oldestPendingAt: nil, rosterCursor: nil,
                rosterFetchedAt: nil, camera: "replay", clockOffsetMs: -300_000, deviceTime: t.addingTimeInterval(300))
            try await client.execute(
                uri: "/v1/devices/heartbeat", method: .post, headers: device.headers, body: Harness.json(beat)
            ) { response throws in
                #expect(response.status == .ok)
                #expect(try Harness.decode(HeartbeatAnswer.self, response.body).serverTime == t)
            }
            h.clock.advance(by: 3600)  // replayed an hour later
            let items = [
                device.item(1, guest: guests[0], at: t.addingTimeInterval(310), offsetMs: nil),
                device.item(2, guest: guests[1], at: t.addingTimeInterval(320), offsetMs: -300_000),
            ]
            _ = try await client.upload(items, event: event.id, as: device)
            let checkIns = try await h.repository.checkIns(event: event.id)
            #expect(checkIns.map(\.correctedTime) == [t.addingTimeInterval(10), t.addingTimeInterval(20)])
            #expect(checkIns.map(\.deviceTime) == [t.addingTimeInterval(310), t.addingTimeInterval(320)])
            #expect(checkIns.map(\.receivedAt) == [t.addingTimeInterval(3600), t.addingTimeInterval(3600)])
            let stored = try await h.repository.device(id: device.id)
            #expect(stored?.lastSeenAt == t)
            #expect(stored?.lastReport?.pending == 2)
        }
    }

    @Test(arguments: RepositoryFactory.all)
    func revertUndoesTheCheckInAndReconfirmNeverMakesASecond(_ factory: RepositoryFactory) async throws {
        let h = try await Harness(factory)
        let (_, event, guests) = try await h.event()
        try await h.app().test(.router) { client in
            let device = try await client.enrol(h, event: event.id)
            let other = try await client.enrol(h, event: event.id, door: "South")
            let t = h.clock.now()
            let admit = device.item(1, guest: guests[0], at: t)
            let answers = try await client.upload(
                [
                    admit,
                    device.item(2, guest: guests[0], kind: .reconfirm, at: t.addingTimeInterval(30)),
                ], event: event.id, as: device)
            #expect(answers.outcomes.map(\.outcome) == [.applied, .recorded])
            #expect(try await h.repository.checkIns(event: event.id).count == 1)
            // A revert of some other scan leaves the check-in alone.
            let unrelated = try await client.upload(
                [
                    other.item(
                        1, guest: guests[0], kind: .revert, at: t.addingTimeInterval(40),
                        reverts: ItemKey(deviceId: other.id, epoch: other.enrolment.queueEpoch, sequence: 99))
                ],
                event: event.id, as: other)
            #expect(unrelated.outcomes[0].outcome == .recorded)
            #expect(try await h.repository.checkIns(event: event.id).count == 1)
            // The revert of the admit undoes it; the guest's row tells the kiosks.
            let cursor = try await client.roster("", event: event.id, as: device).changeCursor!
            let reverted = try await client.upload(
                [
                    device.item(
                        3, guest: guests[0], kind: .revert, at: t.addingTimeInterval(50),
                        reverts: admit.key)
                ], event: event.id, as: device)
            #expect(reverted.outcomes[0].outcome == .applied)
            #expect(try await h.repository.checkIns(event: event.id).isEmpty)
            let delta = try await client.roster("?changesSince=\(cursor)", event: event.id, as: device)
            #expect(delta.guests.map(\.id) == [guests[0].id.text])
            #expect(delta.guests[0].checkIn == nil)
            #expect(
                try await h.repository.checkInEvents(event: event.id).map(\.kind) == [
                    .checkIn, .reconfirm, .revert, .revert,
                ])
        }
    }

    @Test(arguments: RepositoryFactory.all)
    func versionGate426OnTheRosterButUploadsAreAccepted(_ factory: RepositoryFactory) async throws {
        let h = try await Harness(factory)
        let (_, event, guests) = try await h.event(minimumKioskVersion: "1.2.0")
        try await h.app().test(.router) { client in
            let device = try await client.enrol(h, event: event.id)  // says Kiosk-Version 1.0.0
            try await client.execute(uri: "/v1/events/\(event.id)/roster", method: .get, headers: device.headers) {
                response throws in
                #expect(response.status.code == 426)
                #expect(try Harness.decode(APIError.self, response.body).code == "update_required")
            }
            var newer = device.headers
            newer[CheckinHeader.kioskVersion] = "1.10.0"
            try await client.execute(uri: "/v1/events/\(event.id)/roster", method: .get, headers: newer) {
                response throws in
                #expect(response.status == .ok)
            }
            let answer = try await client.upload(
                [device.item(1, guest: guests[0], at: h.clock.now())], event: event.id, as: device)
            #expect(answer.outcomes[0].outcome == .applied)
            let beat = Heartbeat(
                door: "North", kioskVersion: "1.0.0", pending: 0, oldestPendingAt: nil, rosterCursor: nil,
                rosterFetchedAt: nil, camera: "replay", clockOffsetMs: nil, deviceTime: h.clock.now())
            try await client.execute(
                uri: "/v1/devices/heartbeat", method: .post, headers: device.headers, body: Harness.json(beat)
            ) { response throws in
                let answer = try Harness.decode(HeartbeatAnswer.self, response.body)
                // With the date kiosks purge the event's personal data: its end plus the default 30 days.
                #expect(
                    answer.events == [
                        .init(
                            id: event.id.rawValue, minimumKioskVersion: "1.2.0",
                            personalDataPurgeAt: event.endsAt.addingTimeInterval(30 * 86_400))
                    ])
            }
        }
    }

    @Test(arguments: RepositoryFactory.all)
    func adminAPINeedsTheAdminTokenAndImportsAllOrNothing(_ factory: RepositoryFactory) async throws {
        let h = try await Harness(factory)
        let token = try await h.admin.newAdminToken()
        let auth: HTTPFields = [.authorization: "Bearer \(token)"]
        try await h.app().test(.router) { client in
            try await client.execute(
                uri: "/v1/admin/tenants", method: .post, headers: [.authorization: "Bearer nope"],
                body: Harness.json(TenantInput(name: "X"))
            ) { response throws in
                #expect(response.status == .unauthorized)
            }
            let tenant = try await client.execute(
                uri: "/v1/admin/tenants", method: .post, headers: auth,
                body: Harness.json(TenantInput(name: "Acme"))
            ) { response throws in
                #expect(response.status == .created)
                return try Harness.decode(TenantInfo.self, response.body)
            }
            let event = try await client.execute(
                uri: "/v1/admin/tenants/\(tenant.id)/events", method: .post, headers: auth,
                body: Harness.json(
                    EventInput(name: "Gala", startsAt: Harness.start, endsAt: Harness.start.addingTimeInterval(3600)))
            ) { response throws in
                #expect(response.status == .created)
                return try Harness.decode(EventInfo.self, response.body)
            }
            try await client.execute(
                uri: "/v1/admin/events/\(event.id)/guests/import", method: .post, headers: auth,
                body: ByteBuffer(string: "name,party_size\nAda,1\nBob,many\nCy,2\n")
            ) { response throws in
                #expect(response.status.code == 422)
                let error = try Harness.decode(APIError.self, response.body)
                #expect(error.lines?.map(\.line) == [3])
            }
            #expect(try await h.repository.rosterPage(event: EventID(event.id), page: nil, limit: 10).total == 0)
            try await client.execute(
                uri: "/v1/admin/events/\(event.id)/guests/import", method: .post, headers: auth,
                body: ByteBuffer(string: "name,party_size\nAda,1\nCy,2\n")
            ) { response throws in
                #expect(try Harness.decode(ImportAnswer.self, response.body).imported == 2)
            }
            let code = try await client.execute(
                uri: "/v1/admin/events/\(event.id)/enrolment-codes", method: .post, headers: auth
            ) { response throws in
                #expect(response.status == .created)
                let answer = try Harness.decode(EnrolmentCodeAnswer.self, response.body)
                #expect(answer.code.count == 19)
                #expect(answer.expiresAt == h.clock.now().addingTimeInterval(24 * 3600))
                return answer.code
            }
            // The kiosk enrols with it and reports in; the devices list (the sync monitor's data) shows it.
            let enrolment = try await client.execute(
                uri: "/v1/enrolments/redeem", method: .post,
                body: Harness.json(EnrolmentRequest(code: code, door: "East", kioskVersion: "1.3.0"))
            ) { response throws in try Harness.decode(Enrolment.self, response.body) }
            let beat = Heartbeat(
                door: "East", kioskVersion: "1.3.0", pending: 7, oldestPendingAt: h.clock.now(), rosterCursor: "c1:2",
                rosterFetchedAt: h.clock.now(), camera: "streaming 640x480 YUYV", clockOffsetMs: 1500,
                deviceTime: h.clock.now())
            try await client.execute(
                uri: "/v1/devices/heartbeat", method: .post, headers: [.authorization: "Bearer \(enrolment.token)"],
                body: Harness.json(beat)
            ) { response throws in #expect(response.status == .ok) }
            try await client.execute(uri: "/v1/admin/events/\(event.id)/devices", method: .get, headers: auth) {
                response throws in
                let list =
                    try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [[String: Any]]
                #expect(list?.count == 1)
                #expect(list?.first?["deviceId"] as? String == enrolment.deviceId)
                #expect(list?.first?["door"] as? String == "East")
                #expect(list?.first?["pending"] as? Int == 7)
                #expect(list?.first?["clockOffsetMs"] as? Int == 1500)
                #expect(list?.first?["camera"] as? String == "streaming 640x480 YUYV")
            }
            try await client.execute(uri: "/v1/admin/events/4242/export", method: .get, headers: auth) {
                response throws in
                #expect(response.status == .notFound)
            }
        }
    }
}
