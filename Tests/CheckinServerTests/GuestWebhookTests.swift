import CheckinCore
import CheckinServer
import CheckinWebhooks
import Foundation
import Hummingbird
import HummingbirdTesting
import KioskCore
import PassFormat
import PostgresTestSupport
import Testing
import WireAPI

/// Guests from the organizer's own system, by Standard Webhooks, through the real router on each store.
@Suite(.dropsTestDatabases)
struct GuestWebhookTests {
    struct Sent {
        var status: HTTPResponse.Status
        var result: GuestWebhookResult?
    }

    static func send(
        _ client: some TestClientProtocol, tenant: TenantID, id: String, payload: GuestWebhookPayload,
        secret: String, at time: Date, signature: String? = nil
    ) async throws -> Sent {
        let body = try APICoding.encoder().encode(payload)
        let timestamp = Int64(time.timeIntervalSince1970)
        let key = try WebhookSecretKey(secret)
        let signed = signature ?? StandardWebhook.sign(id: id, timestamp: timestamp, body: [UInt8](body), secret: key)
        let headers: HTTPFields = [
            .contentType: "application/json", HTTPFields.Element.Name("webhook-id")!: id,
            HTTPFields.Element.Name("webhook-timestamp")!: String(timestamp),
            HTTPFields.Element.Name("webhook-signature")!: signed,
        ]
        return try await client.execute(
            uri: "/v1/webhooks/tenants/\(tenant.rawValue)/guests", method: .post, headers: headers,
            body: ByteBuffer(bytes: body)
        ) { response in
            Sent(status: response.status, result: try? Harness.decode(GuestWebhookResult.self, response.body))
        }
    }

    static func created(_ event: EventID, _ reference: String, email: String?, name: String = "Zoë Quinn")
        -> GuestWebhookPayload
    {
        GuestWebhookPayload(
            type: "guest.created",
            data: GuestWebhookData(
                eventId: event.rawValue, reference: reference, name: name, email: email, partySize: 2))
    }

    @Test(arguments: RepositoryFactory.all)
    func aSignedWebhookAddsAGuestOnceAndStartsItsPass(_ factory: RepositoryFactory) async throws {
        let h = try await Harness(factory)
        let (tenant, event, _) = try await h.event(guests: 0)
        try await h.app().test(.router) { client in
            // No secret yet: refused like a bad signature.
            let early = try await Self.send(
                client, tenant: tenant.id, id: "msg_0",
                payload: Self.created(event.id, "shop-1", email: "z@example.org"),
                secret: WebhookSecretKey.generate(), at: h.clock.now())
            #expect(early.status == .unauthorized)

            let secret = try await h.admin.newWebhookSecret(tenant: tenant.id)
            let first = try await Self.send(
                client, tenant: tenant.id, id: "msg_1",
                payload: Self.created(event.id, "shop-1", email: "z@example.org"),
                secret: secret, at: h.clock.now())
            #expect(first.status == .ok && first.result?.outcome == "added")
            let guestText = try #require(first.result?.guestId)
            let guestID = try #require(GuestID(text: guestText))
            let guest = try #require(try await h.repository.guest(guestID, event: event.id))
            #expect(guest.name == "Zoë Quinn" && guest.email == "z@example.org" && guest.partySize == 2)
            #expect(try await h.repository.issuances(guest: guestID, event: event.id).map(\.step) == [.sign])

            // The same webhook-id again (the sender retrying): acknowledged, not processed.
            let again = try await Self.send(
                client, tenant: tenant.id, id: "msg_1",
                payload: Self.created(event.id, "shop-1", email: "z@example.org"),
                secret: secret, at: h.clock.now())
            #expect(again.status == .ok && again.result?.outcome == "duplicate")
            #expect(try await h.repository.searchGuests(event: event.id, text: "", limit: 10).count == 1)
            #expect(try await h.repository.issuances(guest: guestID, event: event.id).count == 1)

            // A new address: the unfinished send to the old one stops and the pass goes to the new one.
            let moved = try await Self.send(
                client, tenant: tenant.id, id: "msg_2",
                payload: GuestWebhookPayload(
                    type: "guest.updated",
                    data: GuestWebhookData(
                        eventId: event.id.rawValue, reference: "shop-1", name: "Zoë Quinn", email: "zoe@new.example",
                        partySize: 2)), secret: secret, at: h.clock.now())
            #expect(moved.status == .ok && moved.result?.outcome == "updated" && moved.result?.reissued == true)
            let issuances = try await h.repository.issuances(guest: guestID, event: event.id)
            #expect(
                Set(issuances.map { "\($0.step.rawValue) \($0.recipient ?? "")" }) == [
                    "sign zoe@new.example", "cancelled z@example.org",
                ])

            // A new party size only: no new pass.
            let bigger = try await Self.send(
                client, tenant: tenant.id, id: "msg_3",
                payload: GuestWebhookPayload(
                    type: "guest.updated",
                    data: GuestWebhookData(
                        eventId: event.id.rawValue, reference: "shop-1", name: "Zoë Quinn", email: "zoe@new.example",
                        partySize: 4)), secret: secret, at: h.clock.now())
            #expect(bigger.result?.outcome == "updated" && bigger.result?.reissued == false)
            #expect(try await h.repository.issuances(guest: guestID, event: event.id).count == 2)

            // Cancelled: every unfinished issuance stops, and the kiosks get the row as a tombstone.
            let device = try await client.enrol(h, event: event.id)
            let cursor = try #require(try await client.roster("", event: event.id, as: device).changeCursor)
            let cancelled = try await Self.send(
                client, tenant: tenant.id, id: "msg_4",
                payload: GuestWebhookPayload(
                    type: "guest.cancelled", data: GuestWebhookData(eventId: event.id.rawValue, reference: "shop-1")),
                secret: secret, at: h.clock.now())
            #expect(cancelled.result?.outcome == "cancelled")
            #expect(
                try await h.repository.issuances(guest: guestID, event: event.id).allSatisfy { $0.step == .cancelled })
            let delta = try await client.roster("?changesSince=\(cursor)", event: event.id, as: device)
            #expect(delta.guests.map(\.id) == [guestID.text] && delta.guests.first?.status == .cancelled)

            // An update of a cancelled guest, or of a reference never seen, is refused with the reason.
            let late = try await Self.send(
                client, tenant: tenant.id, id: "msg_5",
                payload: Self.created(event.id, "shop-1", email: "z@example.org"),
                secret: secret, at: h.clock.now())
            #expect(late.result?.outcome == "refused" && late.result?.message?.contains("cancelled") == true)
            let unknown = try await Self.send(
                client, tenant: tenant.id, id: "msg_6",
                payload: GuestWebhookPayload(
                    type: "guest.cancelled", data: GuestWebhookData(eventId: event.id.rawValue, reference: "never")),
                secret: secret, at: h.clock.now())
            #expect(unknown.result?.outcome == "refused")
        }
    }

    @Test(arguments: RepositoryFactory.all)
    func forgedStaleAndMisdirectedWebhooksAreRefusedAndAudited(_ factory: RepositoryFactory) async throws {
        let h = try await Harness(factory)
        let (tenant, event, _) = try await h.event(guests: 0)
        let (other, otherEvent, _) = try await h.event(tenantName: "Other", guests: 0)
        let secret = try await h.admin.newWebhookSecret(tenant: tenant.id)
        let otherSecret = try await h.admin.newWebhookSecret(tenant: other.id)
        try await h.app().test(.router) { client in
            let payload = Self.created(event.id, "shop-9", email: "a@example.org")
            // Signed with another tenant's secret, with a made-up signature, six minutes old, in the future.
            for (secretUsed, at, signature) in [
                (otherSecret, h.clock.now(), nil), (secret, h.clock.now(), "v1,AAAA"),
                (secret, h.clock.now().addingTimeInterval(-360), nil),
                (secret, h.clock.now().addingTimeInterval(360), nil),
            ] as [(String, Date, String?)] {
                let sent = try await Self.send(
                    client, tenant: tenant.id, id: "msg_x", payload: payload, secret: secretUsed, at: at,
                    signature: signature)
                #expect(sent.status == .unauthorized)
            }
            #expect(try await h.repository.searchGuests(event: event.id, text: "", limit: 10).isEmpty)
            let refusals = try await h.repository.auditEntries(tenant: tenant.id, limit: 50).filter {
                $0.action == "webhook_refused"
            }
            #expect(refusals.count == 4 && refusals.contains { $0.detail.contains("in the past") })

            // Verified, but for another tenant's event: 404, nothing added there.
            let misdirected = try await Self.send(
                client, tenant: tenant.id, id: "msg_y", payload: Self.created(otherEvent.id, "shop-9", email: nil),
                secret: secret, at: h.clock.now())
            #expect(misdirected.status == .notFound)
            #expect(try await h.repository.searchGuests(event: otherEvent.id, text: "", limit: 10).isEmpty)

            // Verified but malformed: 400 that names the problem.
            let nameless = try await client.execute(
                uri: "/v1/webhooks/tenants/\(tenant.id.rawValue)/guests", method: .post,
                headers: Self.signedHeaders(
                    id: "msg_z", body: #"{"type":"guest.created"}"#, secret: secret, at: h.clock.now()),
                body: ByteBuffer(string: #"{"type":"guest.created"}"#)
            ) { ($0.status, String(buffer: $0.body)) }
            #expect(nameless.0 == .badRequest && nameless.1.contains("GuestWebhookPayload"))

            // Rotation: the previous secret verifies for a day after the new one is made, then no more.
            let newer = try await h.admin.newWebhookSecret(tenant: tenant.id)
            let withOld = try await Self.send(
                client, tenant: tenant.id, id: "msg_r1", payload: payload, secret: secret, at: h.clock.now())
            #expect(withOld.result?.outcome == "added")
            h.clock.advance(by: 25 * 3600)
            let tooLate = try await Self.send(
                client, tenant: tenant.id, id: "msg_r2", payload: payload, secret: secret, at: h.clock.now())
            #expect(tooLate.status == .unauthorized)
            let withNew = try await Self.send(
                client, tenant: tenant.id, id: "msg_r3", payload: payload, secret: newer, at: h.clock.now())
            #expect(withNew.result?.outcome == "updated")
        }
    }

    static func signedHeaders(id: String, body: String, secret: String, at time: Date) throws -> HTTPFields {
        let timestamp = Int64(time.timeIntervalSince1970)
        return [
            .contentType: "application/json", HTTPFields.Element.Name("webhook-id")!: id,
            HTTPFields.Element.Name("webhook-timestamp")!: String(timestamp),
            HTTPFields.Element.Name("webhook-signature")!: StandardWebhook.sign(
                id: id, timestamp: timestamp, body: Array(body.utf8), secret: try WebhookSecretKey(secret)),
        ]
    }
}
