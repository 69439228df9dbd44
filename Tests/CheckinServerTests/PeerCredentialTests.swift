import CheckinCore
import CheckinServer
import Crypto
import Cryptography
import Foundation
import Hummingbird
import HummingbirdTesting
import KioskCore
import PassFormat
import PostgresTestSupport
import SignedRecords
import Testing
import WireAPI

@testable import CheckinAdmin

/// Issue 23: a kiosk that sends its peer key at enrolment and with each heartbeat gets a peer credential per
/// event, signed with the tenant's newest pass-signing key (which kiosks trust through `trusted_key`), for its
/// device id and door, valid 24 hours from the server's clock; and the peers each kiosk reports are kept with
/// its report and shown on the sync monitor ("who sees whom").
@Suite(.dropsTestDatabases) struct PeerCredentialTests {
    /// A peer public key as a kiosk sends it: an uncompressed P-256 point (X9.63, 65 bytes, first byte 4). The
    /// server checks the form only, so random coordinates do.
    static func peerKey() -> [UInt8] { Array(P256.Signing.PrivateKey().publicKey.x963Representation) }

    /// The credential a wire value stands for (the kiosk's side of the conversion, written here again).
    static func credential(_ wire: PeerCredentialWire) throws -> PeerCredential {
        PeerCredential(
            version: try #require(UInt8(exactly: wire.version)), keyID: try #require(KeyID(exactly: wire.keyId)),
            tenant: wire.tenantId, event: wire.eventId, deviceId: wire.deviceId, door: wire.door,
            peerKey: Array(try #require(Data(base64Encoded: wire.peerKey))), notBefore: wire.notBefore,
            notAfter: wire.notAfter, signature: Array(try #require(Data(base64Encoded: wire.signature))))
    }

    /// What a kiosk of the tenant trusts: the `trusted_key` lines the server exports, read as kiosk.conf's are.
    static func trustedKeys(_ h: Harness, tenant: TenantID) async throws -> TrustedKeys {
        var keys = TrustedKeys()
        for line in CheckinAdmin.trustedKeyLines(try await h.admin.signingKeys(tenant: tenant, rotate: false)) {
            let words = line.split(separator: " ")
            let id = try #require(words.count == 4 ? KeyID(words[2]) : nil, "\(line)")
            keys.trust(try TrustedKeys.loadKey(String(words[3]), relativeTo: "/"), as: id)
        }
        return keys
    }

    /// Redeems a fresh code for `event`: the status, the error or the enrolment, and the answer's JSON.
    static func redeem(
        _ client: some TestClientProtocol, _ h: Harness, event: EventID, door: String = "North", peerKey: String?,
        code: String? = nil
    ) async throws -> (status: HTTPResponse.Status, enrolment: Enrolment?, error: APIError?, json: String) {
        var code = code
        if code == nil { code = try await h.admin.createEnrolmentCode(event: event).code }
        return try await client.execute(
            uri: "/v1/enrolments/redeem", method: .post, headers: [.contentType: "application/json"],
            body: Harness.json(EnrolmentRequest(code: code ?? "", door: door, kioskVersion: "1.0.0", peerKey: peerKey))
        ) { response in
            (
                response.status, response.status == .ok ? try Harness.decode(Enrolment.self, response.body) : nil,
                response.status == .ok ? nil : try? Harness.decode(APIError.self, response.body),
                String(buffer: response.body)
            )
        }
    }

    static func heartbeat(
        _ client: some TestClientProtocol, _ device: EnrolledDevice, door: String = "North", peerKey: String? = nil,
        lanPeers: [String]? = nil
    ) async throws -> (status: HTTPResponse.Status, answer: HeartbeatAnswer?, error: APIError?) {
        let beat = Heartbeat(
            door: door, kioskVersion: "1.0.0", pending: 0, oldestPendingAt: nil, rosterCursor: nil,
            rosterFetchedAt: nil, camera: "streaming", clockOffsetMs: 0, deviceTime: Date(), peerKey: peerKey,
            lanPeers: lanPeers)
        return try await client.execute(
            uri: "/v1/devices/heartbeat", method: .post, headers: device.headers, body: Harness.json(beat)
        ) { response in
            (
                response.status,
                response.status == .ok ? try Harness.decode(HeartbeatAnswer.self, response.body) : nil,
                response.status == .ok ? nil : try? Harness.decode(APIError.self, response.body)
            )
        }
    }

    @Test(arguments: RepositoryFactory.all)
    func anEnrolmentWithAPeerKeyGetsACredentialPerEventThatKiosksVerify(_ factory: RepositoryFactory) async throws {
        let h = try await Harness(factory)
        let (tenant, event, _) = try await h.event()
        #expect(try await h.repository.signingKeys(tenant: tenant.id).isEmpty)
        let key = Self.peerKey()
        try await h.app().test(.router) { client in
            let answer = try await Self.redeem(
                client, h, event: event.id, door: "South", peerKey: Data(key).base64EncodedString())
            #expect(answer.status == .ok)
            let enrolment = try #require(answer.enrolment)
            let wires = try #require(enrolment.peerCredentials)
            #expect(wires.count == enrolment.events.count && wires.count == 1)
            let credential = try Self.credential(try #require(wires.first))
            // The tenant had no signing key: it got one, and the credential is signed with it.
            let keys = try await h.repository.signingKeys(tenant: tenant.id)
            #expect(keys.count == 1 && credential.keyID == keys[0].keyID)
            #expect(credential.deviceId == enrolment.deviceId && credential.door == "South")
            #expect(credential.tenant == tenant.id.rawValue && credential.event == event.id.rawValue)
            #expect(credential.peerKey == key)
            let now = Int64(h.clock.now().timeIntervalSince1970)
            #expect(credential.notBefore == now && credential.notAfter == now + 24 * 3600)
            let trusted = try await Self.trustedKeys(h, tenant: tenant.id)
            #expect(
                credential.check(tenant: tenant.id.rawValue, event: event.id.rawValue, now: now, verifier: trusted)
                    == nil)
            #expect(
                credential.check(
                    tenant: tenant.id.rawValue, event: event.id.rawValue, now: now + 86_401, verifier: trusted)
                    == .expired)
            var forged = credential
            forged.door = "North"
            #expect(
                forged.check(tenant: tenant.id.rawValue, event: event.id.rawValue, now: now, verifier: trusted)
                    == .badSignature)
        }
    }

    @Test(arguments: [RepositoryFactory.sqliteInMemory, .postgres])
    func eachHeartbeatWithThePeerKeyGetsAFreshCredential(_ factory: RepositoryFactory) async throws {
        let h = try await Harness(factory)
        let (tenant, event, _) = try await h.event()
        let key = Data(Self.peerKey()).base64EncodedString()
        try await h.app().test(.router) { client in
            let enrolment = try #require(try await Self.redeem(client, h, event: event.id, peerKey: key).enrolment)
            let device = EnrolledDevice(enrolment: enrolment)
            let first = try Self.credential(try #require(enrolment.peerCredentials?.first))
            // An hour later (and after the key was rotated): a credential from then, signed with the new key.
            h.clock.advance(by: 3600)
            let rotated = try #require(try await h.admin.signingKeys(tenant: tenant.id, rotate: true).first)
            let answer = try await Self.heartbeat(client, device, peerKey: key)
            #expect(answer.status == .ok)
            let wires = try #require(answer.answer?.peerCredentials)
            #expect(wires.count == 1)
            let fresh = try Self.credential(wires[0])
            let now = Int64(h.clock.now().timeIntervalSince1970)
            #expect(fresh.notBefore == now && fresh.notAfter == now + PeerCredential.validity)
            #expect(fresh.notBefore == first.notBefore + 3600)
            #expect(fresh.keyID == rotated.keyID && fresh.keyID != first.keyID)
            #expect(fresh.deviceId == device.id && fresh.door == "North" && fresh.event == event.id.rawValue)
            let trusted = try await Self.trustedKeys(h, tenant: tenant.id)
            #expect(
                fresh.check(tenant: tenant.id.rawValue, event: event.id.rawValue, now: now, verifier: trusted) == nil)
            // Without the key (an older kiosk): no credentials.
            let plain = try await Self.heartbeat(client, device)
            #expect(plain.status == .ok && plain.answer?.peerCredentials == nil)
            // A revoked device's token is refused: no credential, and its last one lapses within 24 hours.
            try await h.admin.revokeDevice(device.id, tenant: tenant.id)
            #expect(try await Self.heartbeat(client, device, peerKey: key).status == .unauthorized)
        }
    }

    @Test(arguments: RepositoryFactory.all)
    func aDeltasRowsAreSignedSoDoorsCanPassThemOnAndAFirstDownloadsAreNot(_ factory: RepositoryFactory)
        async throws
    {
        let h = try await Harness(factory)
        let (tenant, event, guests) = try await h.event(guests: 3)
        try await h.app().test(.router) { client in
            let device = try await client.enrol(h, event: event.id)
            let first = try await client.roster("", event: event.id, as: device)
            #expect(first.guests.allSatisfy { $0.signature == nil && $0.signedBy == nil })
            _ = try await h.admin.cancelGuest(guests[1].id.displayCode, event: event.id)
            let walkIn = try await h.admin.addGuest(
                GuestInput(
                    name: "Zoë Nuñez-李 \"Late\"", email: "zoë@exämple.org", partySize: 2, ticketType: "VIP",
                    checkInNote: "Rollstuhl · 車椅子", arrivalAlert: "tell Ana"),
                event: event.id)
            let delta = try await client.roster("?changesSince=\(first.changeCursor!)", event: event.id, as: device)
            #expect(delta.guests.map(\.id) == [guests[1].id.text, walkIn.id.text])
            let trusted = try await Self.trustedKeys(h, tenant: tenant.id)
            for record in delta.guests {
                let notice = try Self.notice(record, tenant: tenant.id, event: event.id)
                #expect(notice.check(tenant: tenant.id.rawValue, event: event.id.rawValue, verifier: trusted) == nil)
                // Altered on the way (a door that cancels a guest, or admits one): the signature no longer holds.
                var altered = notice
                altered.status = notice.status == "active" ? "cancelled" : "active"
                #expect(
                    altered.check(tenant: tenant.id.rawValue, event: event.id.rawValue, verifier: trusted)
                        == .badSignature)
                var renamed = notice
                renamed.name += "x"
                #expect(
                    renamed.check(tenant: tenant.id.rawValue, event: event.id.rawValue, verifier: trusted)
                        == .badSignature)
            }
            let cancelled = try Self.notice(delta.guests[0], tenant: tenant.id, event: event.id)
            #expect(cancelled.status == "cancelled")
            let added = try Self.notice(delta.guests[1], tenant: tenant.id, event: event.id)
            // A non-ASCII name, a quote and notes joined as the kiosk joins them: the signature is over the UTF-8 the
            // server signed, read back through its own JSON writer and the kiosk's reader.
            #expect(added.name == "Zoë Nuñez-李 \"Late\"" && added.email == "zoë@exämple.org" && added.partySize == 2)
            #expect(added.notes == "VIP · Rollstuhl · 車椅子 · ALERT: tell Ana")
            // For another event it is refused even with its signature.
            #expect(
                added.check(tenant: tenant.id.rawValue, event: event.id.rawValue + 1, verifier: trusted)
                    == .otherEvent(tenant: tenant.id.rawValue, event: event.id.rawValue))
        }
    }

    /// A delta's row as the kiosk makes it into a notice (KioskSync's conversion, written here again).
    static func notice(_ record: GuestRecord, tenant: TenantID, event: EventID) throws -> GuestNotice {
        let guest = try #require(
            RosterGuest(
                serverRow: record.id, tenant: tenant, event: event, name: record.name, email: record.email,
                partySize: record.partySize, ticketType: record.ticketType, checkInNote: record.checkInNote,
                arrivalAlert: record.arrivalAlert, cancelled: record.status == .cancelled))
        return GuestNotice(
            keyID: try #require(record.signedBy.flatMap { KeyID(exactly: $0) }), guest: guest, version: record.version,
            signature: Array(try #require(record.signature.flatMap { Data(base64Encoded: $0) })))
    }

    @Test(arguments: RepositoryFactory.all)
    func heartbeatsCarryTheSignedRevocationsOfTheEventsDevicesWhileTheirCredentialsMayHold(
        _ factory: RepositoryFactory
    ) async throws {
        let h = try await Harness(factory)
        let (tenant, event, _) = try await h.event()
        let key = Data(Self.peerKey()).base64EncodedString()
        try await h.app().test(.router) { client in
            let north = EnrolledDevice(
                enrolment: try #require(try await Self.redeem(client, h, event: event.id, peerKey: key).enrolment))
            let south = EnrolledDevice(
                enrolment: try #require(
                    try await Self.redeem(client, h, event: event.id, door: "South", peerKey: key).enrolment))
            #expect(try await Self.heartbeat(client, south, door: "South", peerKey: key).status == .ok)
            #expect(try await Self.heartbeat(client, north, peerKey: key).answer?.revocations == nil)
            h.clock.advance(by: 60)
            try await h.admin.revokeDevice(south.id, tenant: tenant.id)
            let revokedAt = Int64(h.clock.now().timeIntervalSince1970.rounded(.up))
            h.clock.advance(by: 15)
            let answer = try #require(try await Self.heartbeat(client, north, peerKey: key).answer)
            let wires = try #require(answer.revocations)
            #expect(wires.count == 1)
            let wire = try #require(wires.first)
            let revocation = DeviceRevocation(
                keyID: try #require(KeyID(exactly: wire.keyId)), tenant: wire.tenantId, event: wire.eventId,
                deviceId: wire.deviceId, revokedAt: wire.revokedAt,
                signature: Array(try #require(Data(base64Encoded: wire.signature))))
            #expect(revocation.deviceId == south.id && revocation.revokedAt == revokedAt)
            let trusted = try await Self.trustedKeys(h, tenant: tenant.id)
            #expect(revocation.check(tenant: tenant.id.rawValue, event: event.id.rawValue, verifier: trusted) == nil)
            var moved = revocation
            moved.deviceId = north.id
            #expect(
                moved.check(tenant: tenant.id.rawValue, event: event.id.rawValue, verifier: trusted) == .badSignature)
            // South's last credential (from its last heartbeat) is revoked; a credential issued later is not.
            let southCredential = PeerCredential(
                keyID: revocation.keyID, tenant: tenant.id.rawValue, event: event.id.rawValue, deviceId: south.id,
                door: "South", peerKey: [], notBefore: revokedAt - 75, notAfter: revokedAt + 86_400)
            #expect(revocation.revokes(southCredential))
            var later = southCredential
            later.notBefore = revokedAt + 1
            #expect(!revocation.revokes(later))
            // A day after South was last heard its credentials have lapsed: no revocation is sent any more.
            h.clock.advance(by: Double(PeerCredential.validity) + 600)
            #expect(try await Self.heartbeat(client, north, peerKey: key).answer?.revocations == nil)
        }
    }

    @Test func aPeerKeyThatIsNoP256PointIsRefusedNamingTheField() async throws {
        let h = try await Harness(.sqliteInMemory)
        let (_, event, _) = try await h.event()
        let good = Self.peerKey()
        var compressed = Array(good.prefix(33))
        compressed[0] = 2
        let wrongPrefix = [5] + good.dropFirst()
        // 65 bytes of the right form, but no point of the curve (a random x and y is one with negligible odds).
        let offCurve = [4] + (0..<64).map { _ in UInt8.random(in: 0...255) }
        let bad = [
            "not base64!", Data(compressed).base64EncodedString(), Data(wrongPrefix).base64EncodedString(),
            Data(good + [0]).base64EncodedString(), "", Data(offCurve).base64EncodedString(),
        ]
        try await h.app().test(.router) { client in
            let code = try await h.admin.createEnrolmentCode(event: event.id).code
            for key in bad {
                let answer = try await Self.redeem(client, h, event: event.id, peerKey: key, code: code)
                #expect(answer.status == .badRequest, "\(key)")
                #expect(answer.error?.message.contains("peerKey") == true, "\(answer.json)")
                #expect(answer.error?.hint != nil)
            }
            // The code was not spent by the refused requests.
            let enrolled = try await Self.redeem(
                client, h, event: event.id, peerKey: Data(good).base64EncodedString(), code: code)
            #expect(enrolled.status == .ok)
            let device = EnrolledDevice(enrolment: try #require(enrolled.enrolment))
            let beat = try await Self.heartbeat(client, device, peerKey: Data(wrongPrefix).base64EncodedString())
            #expect(beat.status == .badRequest && beat.error?.message.contains("peerKey") == true)
        }
    }

    @Test func anEnrolmentWithoutAPeerKeyHasNoCredentials() async throws {
        let h = try await Harness(.sqliteInMemory)
        let (tenant, event, _) = try await h.event()
        try await h.app().test(.router) { client in
            let answer = try await Self.redeem(client, h, event: event.id, peerKey: nil)
            #expect(answer.status == .ok && answer.enrolment?.peerCredentials == nil)
            #expect(!answer.json.contains("peerCredentials"))
        }
        // No key was made for it either.
        #expect(try await h.repository.signingKeys(tenant: tenant.id).isEmpty)
    }

    @Test(arguments: RepositoryFactory.all)
    func theLANPeersAreKeptAndTheMonitorShowsWhoSeesWhom(_ factory: RepositoryFactory) async throws {
        let h = try await Harness(factory)
        let (tenant, event, _) = try await h.event()
        try await h.organizer(of: tenant)
        try await h.app().test(.router) { client in
            let north = try await client.enrol(h, event: event.id, door: "North")
            let south = try await client.enrol(h, event: event.id, door: "South")
            let east = try await client.enrol(h, event: event.id, door: "East")
            // North sees South and East, and a device of no device of this event; South sees North; East says
            // nothing (no LAN sync).
            #expect(
                try await Self.heartbeat(client, north, lanPeers: [south.id, east.id, "dev_elsewhere"]).status == .ok)
            #expect(try await Self.heartbeat(client, south, door: "South", lanPeers: [north.id]).status == .ok)
            #expect(try await Self.heartbeat(client, east, door: "East").status == .ok)
            #expect(
                try await h.repository.device(id: north.id)?.lastReport?.lanPeers == [
                    south.id, east.id, "dev_elsewhere",
                ])
            #expect(try await h.repository.device(id: east.id)?.lastReport?.lanPeers == nil)

            let (cookie, _) = try await WebPageTests.signIn(client, email: "ann%40example.org")
            func lanCells() async throws -> [String: String] {
                let html = try await client.execute(
                    uri: "/events/\(event.id.rawValue)/monitor/live", method: .get, headers: [.cookie: cookie]
                ) { response in
                    #expect(response.status == .ok)
                    return String(buffer: response.body)
                }
                var cells: [String: String] = [:]
                for device in [north, south, east] {
                    let row = try #require(html.range(of: "id=\"device-\(device.id)\""), "\(html)")
                    let cell = try #require(
                        html.range(of: "<td data-label=\"LAN\">", range: row.upperBound..<html.endIndex))
                    cells[device.id] = String(html[cell.upperBound...].prefix { $0 != "<" })
                }
                return cells
            }
            var cells = try await lanCells()
            #expect(cells[north.id] == "East, South")
            #expect(cells[south.id] == "North")
            #expect(cells[east.id] == "—")

            // A later report replaces the list; an empty one shows none.
            h.clock.advance(by: 15)
            #expect(try await Self.heartbeat(client, north, lanPeers: []).status == .ok)
            #expect(try await h.repository.device(id: north.id)?.lastReport?.lanPeers == [])
            cells = try await lanCells()
            #expect(cells[north.id] == "—")
        }
    }

    @Test(arguments: RepositoryFactory.all)
    func theAdminDevicesListCarriesTheLANPeers(_ factory: RepositoryFactory) async throws {
        let h = try await Harness(factory)
        let (_, event, _) = try await h.event()
        let auth: HTTPFields = [.authorization: "Bearer \(try await h.admin.newAdminToken())"]
        try await h.app().test(.router) { client in
            let north = try await client.enrol(h, event: event.id, door: "North")
            let south = try await client.enrol(h, event: event.id, door: "South")
            #expect(try await Self.heartbeat(client, north, lanPeers: [south.id]).status == .ok)
            let list = try await client.execute(
                uri: "/v1/admin/events/\(event.id)/devices", method: .get, headers: auth
            ) { response in
                #expect(response.status == .ok)
                return try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [[String: Any]]
            }
            let byId = Dictionary(uniqueKeysWithValues: (list ?? []).map { ($0["deviceId"] as? String ?? "", $0) })
            #expect(byId[north.id]?["lanPeers"] as? [String] == [south.id])
            #expect(byId[south.id]?["lanPeers"] == nil)
        }
    }

    @Test func aLANPeerListTooLongOrWithABadIdIsRefused() async throws {
        let h = try await Harness(.sqliteInMemory)
        let (_, event, _) = try await h.event()
        try await h.app().test(.router) { client in
            let device = try await client.enrol(h, event: event.id)
            let tooMany = (0...Heartbeat.maximumLANPeers).map { "dev_\($0)" }
            for peers in [tooMany, [""], [String(repeating: "d", count: 65)]] {
                let answer = try await Self.heartbeat(client, device, lanPeers: peers)
                #expect(answer.status == .badRequest && answer.error?.message.contains("lanPeers") == true)
            }
            // Nothing of the refused reports was kept.
            #expect(try await h.repository.device(id: device.id)?.lastSeenAt == nil)
            let most = Array(tooMany.dropLast())
            #expect(try await Self.heartbeat(client, device, lanPeers: most).status == .ok)
            #expect(try await h.repository.device(id: device.id)?.lastReport?.lanPeers == most)
        }
    }
}
