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

/// The API and docs/api/openapi.yaml cannot drift: every documented operation is called on the real router with
/// real requests, each request body is checked against its documented schema, each answer's status must be
/// documented for its operation and its body must match the documented schema (no field the document does not
/// list, none it requires missing), and every operation of the document must have been called.
@Suite("API contract: docs/api/openapi.yaml against the real server", .dropsTestDatabases)
struct OpenAPIContractTests {
    @Test(arguments: RepositoryFactory.all)
    func everyOperationAnswersAsDocumented(_ factory: RepositoryFactory) async throws {
        let document = try OpenAPIDocument.load()
        let h = try await Harness(factory)
        let app = try h.app()
        let checker = ContractChecker(document: document)
        try await app.test(.router) { client in
            try await exercise(client, h: h, checker: checker)
        }
        for problem in checker.problems { Issue.record("\(problem)") }
        let missed = Set(document.operations).subtracting(checker.covered)
        #expect(missed.isEmpty, "operations of docs/api/openapi.yaml the test never called: \(missed)")
        #expect(checker.calls > 25)
    }

    /// The checker finds what it should: an answer missing a required field, a field the document does not
    /// list, a wrong type, an undocumented status.
    @Test func theCheckerRefusesAnswersThatDrift() throws {
        let document = try OpenAPIDocument.load()
        let event = OpenAPIDocument.Operation(path: "/v1/events/{eventId}", method: "GET")
        let answer = try #require(try document.response(event, status: 200))
        let schema = try #require(try document.schema(in: answer, contentType: "application/json"))
        let good = try JSONValue.parse(
            Array(
                #"{"id":1,"tenantId":1,"name":"Gala","startsAt":"2026-12-01T17:00:00.000Z","endsAt":"2026-12-01T23:00:00.000Z","graceMinutes":30,"serverTime":"2026-12-01T17:00:00.000Z"}"#
                    .utf8))
        let problems = document.problems(good, against: schema)
        #expect(problems.isEmpty, "\(problems)")
        guard case .object(var members) = good else { return }
        members["name"] = nil
        #expect(document.problems(.object(members), against: schema).contains { $0.contains("'name'") })
        members["name"] = .integer(3)
        #expect(document.problems(.object(members), against: schema).contains { $0.contains("not of type") })
        members["name"] = .string("Gala")
        members["secretField"] = .bool(true)
        #expect(document.undocumented(.object(members), against: schema) == ["$.secretField"])
        #expect(try document.response(event, status: 418) == nil)
    }

    private func exercise(_ client: some TestClientProtocol, h: Harness, checker: ContractChecker) async throws {
        typealias Op = OpenAPIDocument.Operation
        let admin: HTTPFields = [.authorization: "Bearer \(try await h.admin.newAdminToken())"]

        _ = try await checker.send(client, Op(path: "/healthz", method: "GET"), uri: "/healthz", expect: 200)
        _ = try await checker.send(client, Op(path: "/readyz", method: "GET"), uri: "/readyz", expect: 200)

        // The organizer's tools: a tenant, events, guests, an import, enrolment codes.
        let tenant = try await checker.send(
            client, Op(path: "/v1/admin/tenants", method: "POST"), uri: "/v1/admin/tenants", headers: admin,
            body: try encode(TenantInput(name: "Acme")), expect: 201)
        let tenantID = try APICoding.decoder().decode(TenantInfo.self, from: Data(tenant)).id
        let createEvent = Op(path: "/v1/admin/tenants/{tenantId}/events", method: "POST")
        let input = EventInput(
            name: "Gala", venue: "Hall", startsAt: Harness.start, endsAt: Harness.start.addingTimeInterval(6 * 3600))
        func newEvent(_ input: EventInput) async throws -> UInt32 {
            let answer = try await checker.send(
                client, createEvent, uri: "/v1/admin/tenants/\(tenantID)/events", headers: admin,
                body: try encode(input), expect: 201)
            return try APICoding.decoder().decode(EventInfo.self, from: Data(answer)).id
        }
        let event = try await newEvent(input)
        var strict = input
        strict.minimumKioskVersion = "9.0.0"
        strict.timeZone = "Europe/Berlin"
        let strictEvent = try await newEvent(strict)
        var unzoned = input
        unzoned.timeZone = "CET+1"
        _ = try await checker.send(
            client, createEvent, uri: "/v1/admin/tenants/\(tenantID)/events", headers: admin,
            body: try encode(unzoned), expect: 400)
        _ = try await checker.send(
            client, createEvent, uri: "/v1/admin/tenants/999/events", headers: admin, body: try encode(input),
            expect: 404)

        let addGuest = Op(path: "/v1/admin/events/{eventId}/guests", method: "POST")
        let added = try JSONValue.parse(
            try await checker.send(
                client, addGuest, uri: "/v1/admin/events/\(event)/guests", headers: admin,
                body: try encode(GuestInput(name: "Walk-in", email: "walk@example.org", partySize: 2)), expect: 201))
        guard case .object(let fields) = added, case .string(let guestID) = fields["id"] else {
            Issue.record("addGuest answered no id: \(added)")
            return
        }
        let importGuests = Op(path: "/v1/admin/events/{eventId}/guests/import", method: "POST")
        _ = try await checker.send(
            client, importGuests, uri: "/v1/admin/events/\(event)/guests/import", headers: admin,
            body: Array("name,email\nBea,bea@example.org\nCy,\n".utf8), contentType: "text/csv", expect: 200)
        _ = try await checker.send(
            client, importGuests, uri: "/v1/admin/events/\(event)/guests/import", headers: admin,
            body: Array("name,party_size\nBea,lots\n".utf8), contentType: "text/csv", expect: 422)

        let codes = Op(path: "/v1/admin/events/{eventId}/enrolment-codes", method: "POST")
        func code(_ event: UInt32) async throws -> String {
            try APICoding.decoder().decode(
                EnrolmentCodeAnswer.self,
                from: Data(
                    try await checker.send(
                        client, codes, uri: "/v1/admin/events/\(event)/enrolment-codes", headers: admin,
                        body: Array("{}".utf8), expect: 201))
            ).code
        }
        let first = try await code(event)
        _ = try await checker.send(
            client, codes, uri: "/v1/admin/events/999/enrolment-codes", headers: admin, body: Array("{}".utf8),
            expect: 404)

        // A kiosk: enrolment, the event, the roster, uploads, heartbeats.
        let redeem = Op(path: "/v1/enrolments/redeem", method: "POST")
        // With a peer key (LAN sync): the answer holds a peer credential. A key that is not a P-256 point: 400.
        let peerKey = PeerCredentialTests.peerKey()
        var notAPoint = [UInt8](repeating: 0, count: 65)
        notAPoint[0] = 5
        _ = try await checker.send(
            client, redeem, uri: "/v1/enrolments/redeem",
            body: try encode(
                EnrolmentRequest(
                    code: first, door: "North", kioskVersion: "1.0.0", peerKey: Data(notAPoint).base64EncodedString())),
            expect: 400)
        let request = EnrolmentRequest(
            code: first, door: "North", kioskVersion: "1.0.0", peerKey: Data(peerKey).base64EncodedString())
        let enrolment = try APICoding.decoder().decode(
            Enrolment.self,
            from: Data(
                try await checker.send(
                    client, redeem, uri: "/v1/enrolments/redeem", body: try encode(request), expect: 200)))
        _ = try await checker.send(client, redeem, uri: "/v1/enrolments/redeem", body: try encode(request), expect: 410)
        _ = try await checker.send(
            client, redeem, uri: "/v1/enrolments/redeem",
            body: try encode(EnrolmentRequest(code: "NOSUCHCODE", door: "North", kioskVersion: "1.0.0")), expect: 404)
        let device: HTTPFields = [
            .authorization: "Bearer \(enrolment.token)", CheckinHeader.kioskVersion: "1.0.0",
        ]

        let getEvent = Op(path: "/v1/events/{eventId}", method: "GET")
        _ = try await checker.send(client, getEvent, uri: "/v1/events/\(event)", headers: device, expect: 200)
        _ = try await checker.send(client, getEvent, uri: "/v1/events/\(event)", expect: 401)
        _ = try await checker.send(client, getEvent, uri: "/v1/events/\(strictEvent)", headers: device, expect: 404)

        let roster = Op(path: "/v1/events/{eventId}/roster", method: "GET")
        let page = try APICoding.decoder().decode(
            RosterPage.self,
            from: Data(
                try await checker.send(
                    client, roster, uri: "/v1/events/\(event)/roster?limit=2", headers: device, expect: 200)))
        if let next = page.nextPage {
            _ = try await checker.send(
                client, roster, uri: "/v1/events/\(event)/roster?limit=2&page=\(next)", headers: device, expect: 200)
        }
        _ = try await checker.send(
            client, roster, uri: "/v1/events/\(event)/roster?changesSince=\(page.changeCursor ?? "")", headers: device,
            expect: 200)
        _ = try await checker.send(
            client, roster, uri: "/v1/events/\(event)/roster?changesSince=garbage", headers: device, expect: 400)
        let strictCode = try await code(strictEvent)
        let strictDevice = try APICoding.decoder().decode(
            Enrolment.self,
            from: Data(
                try await checker.send(
                    client, redeem, uri: "/v1/enrolments/redeem",
                    body: try encode(EnrolmentRequest(code: strictCode, door: "East", kioskVersion: "1.0.0")),
                    expect: 200)))
        _ = try await checker.send(
            client, roster, uri: "/v1/events/\(strictEvent)/roster",
            headers: [.authorization: "Bearer \(strictDevice.token)", CheckinHeader.kioskVersion: "1.0.0"],
            expect: 426)

        let upload = Op(path: "/v1/events/{eventId}/check-ins", method: "POST")
        let item = CheckInItem(
            key: ItemKey(deviceId: enrolment.deviceId, epoch: enrolment.queueEpoch, sequence: 1), guestId: guestID,
            kind: .checkIn, scannedAt: h.clock.now(), clockOffsetMs: 0, arrived: 2, door: "North", source: "camera")
        _ = try await checker.send(
            client, upload, uri: "/v1/events/\(event)/check-ins", headers: device,
            body: try encode(CheckInBatch(items: [item])), expect: 200)
        _ = try await checker.send(
            client, upload, uri: "/v1/events/\(event)/check-ins", headers: device, body: Array("{".utf8),
            expect: 400)

        let heartbeat = Op(path: "/v1/devices/heartbeat", method: "POST")
        var beat = Heartbeat(
            door: "North", kioskVersion: "1.0.0", pending: 0, oldestPendingAt: nil, rosterCursor: page.changeCursor,
            rosterFetchedAt: h.clock.now(), camera: "streaming", clockOffsetMs: 12, deviceTime: h.clock.now(),
            peerKey: Data(peerKey).base64EncodedString(), lanPeers: [strictDevice.deviceId])
        _ = try await checker.send(
            client, heartbeat, uri: "/v1/devices/heartbeat", headers: device, body: try encode(beat), expect: 200)
        beat.peerKey = Data(notAPoint).base64EncodedString()
        _ = try await checker.send(
            client, heartbeat, uri: "/v1/devices/heartbeat", headers: device, body: try encode(beat), expect: 400)

        // The organizer again: a cancellation, the export, the devices.
        _ = try await checker.send(
            client, Op(path: "/v1/admin/events/{eventId}/guests/{guestId}/cancel", method: "POST"),
            uri: "/v1/admin/events/\(event)/guests/\(guestID)/cancel", headers: admin, expect: 200)
        let export = try await checker.send(
            client, Op(path: "/v1/admin/events/{eventId}/export", method: "GET"),
            uri: "/v1/admin/events/\(event)/export", headers: admin, expect: 200)
        #expect(String(decoding: export, as: UTF8.self).contains(#""record":"check_in""#))
        _ = try await checker.send(
            client, Op(path: "/v1/admin/events/{eventId}/devices", method: "GET"),
            uri: "/v1/admin/events/\(event)/devices", headers: admin, expect: 200)

        // Check-in lists and gates (issue 51).
        let lists = Op(path: "/v1/admin/events/{eventId}/lists", method: "POST")
        let made = try APICoding.decoder().decode(
            ListInfo.self,
            from: Data(
                try await checker.send(
                    client, lists, uri: "/v1/admin/events/\(event)/lists", headers: admin,
                    body: try encode(
                        ListInput(name: "VIP lounge", ticketTypes: ["VIP"], maxPerDay: 1, allowsReentry: false)),
                    expect: 201)))
        _ = try await checker.send(
            client, lists, uri: "/v1/admin/events/\(event)/lists", headers: admin,
            body: try encode(
                ListInput(
                    name: "Bad", opensAt: Date(timeIntervalSince1970: 10), closesAt: Date(timeIntervalSince1970: 0))),
            expect: 400)
        _ = try await checker.send(
            client, lists, uri: "/v1/admin/events/999/lists", headers: admin, body: try encode(ListInput(name: "X")),
            expect: 404)
        _ = try await checker.send(
            client, Op(path: "/v1/admin/events/{eventId}/lists", method: "GET"),
            uri: "/v1/admin/events/\(event)/lists", headers: admin, expect: 200)
        let change = Op(path: "/v1/admin/events/{eventId}/lists/{listId}", method: "PUT")
        _ = try await checker.send(
            client, change, uri: "/v1/admin/events/\(event)/lists/\(made.id)", headers: admin,
            body: try encode(ListInput(name: "VIP lounge", capacity: 40)), expect: 200)
        _ = try await checker.send(
            client, change, uri: "/v1/admin/events/\(event)/lists/\(made.id)", headers: admin,
            body: try encode(ListInput(name: CheckInList.firstName)), expect: 400)
        _ = try await checker.send(
            client, change, uri: "/v1/admin/events/\(event)/lists/99999", headers: admin,
            body: try encode(ListInput(name: "VIP lounge")), expect: 404)
        let gate = Op(path: "/v1/admin/events/{eventId}/devices/{deviceId}/gate", method: "PUT")
        _ = try await checker.send(
            client, gate, uri: "/v1/admin/events/\(event)/devices/\(enrolment.deviceId)/gate", headers: admin,
            body: try encode(GateInput(list: made.id, direction: "exit")), expect: 200)
        _ = try await checker.send(
            client, gate, uri: "/v1/admin/events/\(event)/devices/nosuchdevice/gate", headers: admin,
            body: try encode(GateInput()), expect: 404)
        _ = try await checker.send(
            client, codes, uri: "/v1/admin/events/\(event)/enrolment-codes", headers: admin,
            body: try encode(EnrolmentCodeRequest(list: made.id, direction: "exit")), expect: 201)

        // The organizer's own system, through a signed webhook.
        let webhook = Op(path: "/v1/webhooks/tenants/{tenantId}/guests", method: "POST")
        let secret = try await h.admin.newWebhookSecret(tenant: TenantID(tenantID))
        let payload = try encode(
            GuestWebhookPayload(
                type: "guest.created",
                data: GuestWebhookData(eventId: event, reference: "crm-1", name: "Zoë Quinn", email: nil, partySize: 1))
        )
        let timestamp = Int64(h.clock.now().timeIntervalSince1970)
        func signed(_ signature: String) -> HTTPFields {
            [
                HTTPFields.Element.Name("webhook-id")!: "msg_1",
                HTTPFields.Element.Name("webhook-timestamp")!: String(timestamp),
                HTTPFields.Element.Name("webhook-signature")!: signature,
            ]
        }
        let signature = StandardWebhook.sign(
            id: "msg_1", timestamp: timestamp, body: payload, secret: try WebhookSecretKey(secret))
        _ = try await checker.send(
            client, webhook, uri: "/v1/webhooks/tenants/\(tenantID)/guests", headers: signed("v1,AAAA"),
            body: payload, expect: 401)
        _ = try await checker.send(
            client, webhook, uri: "/v1/webhooks/tenants/\(tenantID)/guests", headers: signed(signature),
            body: payload, expect: 200)
    }

    private func encode(_ value: some Encodable) throws -> [UInt8] { Array(try APICoding.encoder().encode(value)) }
}

/// Sends requests through the router and checks each against the document; counts what it called.
final class ContractChecker: @unchecked Sendable {
    let document: OpenAPIDocument
    private(set) var covered: Set<OpenAPIDocument.Operation> = []
    private(set) var problems: [String] = []
    private(set) var calls = 0

    init(document: OpenAPIDocument) { self.document = document }

    /// Sends one request; the answer's body. `expect`: the status this call must get (the test's own check).
    func send(
        _ client: some TestClientProtocol, _ operation: OpenAPIDocument.Operation, uri: String,
        headers: HTTPFields = [:], body: [UInt8]? = nil, contentType: String = "application/json", expect: Int
    ) async throws -> [UInt8] {
        calls += 1
        covered.insert(operation)
        let call = "\(operation.method) \(uri)"
        if let body, contentType == "application/json", let described = try document.requestBody(operation),
            let schema = try document.schema(in: described, contentType: contentType),
            let value = try? JSONValue.parse(body)
        {
            problems += document.problems(value, against: schema).map { "\(call), request: \($0)" }
        }
        var headers = headers
        if body != nil { headers[.contentType] = contentType }
        let method = HTTPRequest.Method(rawValue: operation.method)!
        let (status, answerType, answer) = try await client.execute(
            uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(bytes: $0) }
        ) { response in
            (Int(response.status.code), response.headers[.contentType], Array(response.body.readableBytesView))
        }
        guard status == expect else {
            problems.append(
                "\(call): status \(status), the test expected \(expect): \(String(decoding: answer, as: UTF8.self))")
            return answer
        }
        guard let documented = try document.response(operation, status: status) else {
            problems.append("\(call): status \(status) is not documented for \(operation)")
            return answer
        }
        guard documented["content"] != nil else { return answer }
        let mediaType =
            (answerType ?? "").split(separator: ";").first.map { String($0).trimmingCharacters(in: .whitespaces) } ?? ""
        guard let schema = try? document.schema(in: documented, contentType: mediaType) else {
            problems.append(
                "\(call): answered \(mediaType), documented \((documented["content"] as? [String: Any])?.keys.sorted() ?? [])"
            )
            return answer
        }
        let values: [JSONValue]
        switch mediaType {
        case "application/json":
            do { values = [try JSONValue.parse(answer)] } catch {
                problems.append("\(call): the answer is not JSON: \(error)")
                return answer
            }
            for value in values {
                problems += document.problems(value, against: schema).map { "\(call), answer: \($0)" }
                problems += document.undocumented(value, against: schema).map {
                    "\(call), answer: \($0) is not in the document"
                }
            }
        case "application/x-ndjson":
            for line in answer.split(separator: UInt8(ascii: "\n")) where (try? JSONValue.parse(line)) == nil {
                problems.append("\(call): a line is not JSON: \(String(decoding: line, as: UTF8.self))")
            }
        default:
            problems += document.problems(.string(String(decoding: answer, as: UTF8.self)), against: schema).map {
                "\(call), answer: \($0)"
            }
        }
        return answer
    }
}
