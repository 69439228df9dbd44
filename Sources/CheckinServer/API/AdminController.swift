import CheckinAdmin
import CheckinCore
import EntryRules
import Foundation
import Hummingbird
import PassFormat
import WireAPI

/// `/v1/admin/...`: the organizer's operations behind the admin token (the same `CheckinAdmin` as the
/// `checkin-server` subcommands).
struct AdminController {
    let admin: CheckinAdmin

    static let unprocessable = HTTPResponse.Status(code: 422, reasonPhrase: "Unprocessable Content")

    func addRoutes(to group: RouterGroup<ServerContext>) {
        group.post("tenants", use: createTenant)
        group.post("tenants/:tenantId/events", use: createEvent)
        group.post("events/:eventId/guests", use: addGuest)
        group.post("events/:eventId/guests/import", use: importGuests)
        group.post("events/:eventId/guests/:guestId/cancel", use: cancelGuest)
        group.post("events/:eventId/enrolment-codes", use: createEnrolmentCode)
        group.get("events/:eventId/export", use: export)
        group.get("events/:eventId/devices", use: devices)
        group.post("events/:eventId/lists", use: createList)
        group.get("events/:eventId/lists", use: lists)
        group.put("events/:eventId/lists/:listId", use: updateList)
        group.put("events/:eventId/devices/:deviceId/gate", use: setGate)
    }

    @Sendable func createList(_ request: Request, context: ServerContext) async throws -> Response {
        let event = try Self.id(context.parameters.get("eventId"))
        let input = try await request.decodeJSON(ListInput.self, context: context)
        let list = try await mapped { try await admin.createList(input, event: EventID(event)) }
        return try Response.json(ListInfo(list), status: .created)
    }

    @Sendable func lists(_ request: Request, context: ServerContext) async throws -> Response {
        let event = try Self.id(context.parameters.get("eventId"))
        let lists = try await mapped { try await admin.lists(event: EventID(event)) }
        return try Response.json(lists.map(ListInfo.init))
    }

    @Sendable func updateList(_ request: Request, context: ServerContext) async throws -> Response {
        let event = try Self.id(context.parameters.get("eventId"))
        let list = try Self.id(context.parameters.get("listId"))
        let input = try await request.decodeJSON(ListInput.self, context: context)
        let changed = try await mapped { try await admin.updateList(ListID(list), input, event: EventID(event)) }
        return try Response.json(ListInfo(changed))
    }

    @Sendable func setGate(_ request: Request, context: ServerContext) async throws -> Response {
        let event = try Self.id(context.parameters.get("eventId"))
        let device = context.parameters.get("deviceId") ?? ""
        let input = try await request.decodeJSON(GateInput.self, context: context)
        let gate = try await mapped {
            try await admin.setGate(
                device: device, event: EventID(event), list: input.list.map(ListID.init),
                direction: try CheckinAdmin.direction(input.direction))
        }
        return try Response.json(GateInput(list: gate.list?.rawValue, direction: gate.direction.rawValue))
    }

    @Sendable func createTenant(_ request: Request, context: ServerContext) async throws -> Response {
        let input = try await request.decodeJSON(TenantInput.self, context: context)
        let tenant = try await mapped { try await admin.createTenant(name: input.name) }
        return try Response.json(TenantInfo(id: tenant.id.rawValue, name: tenant.name), status: .created)
    }

    @Sendable func createEvent(_ request: Request, context: ServerContext) async throws -> Response {
        let tenant = try Self.id(context.parameters.get("tenantId"))
        let input = try await request.decodeJSON(EventInput.self, context: context)
        let event = try await mapped { try await admin.createEvent(input, tenant: TenantID(tenant)) }
        return try Response.json(EventAnswer(event: EventInfo(event), serverTime: admin.clock.now()), status: .created)
    }

    @Sendable func addGuest(_ request: Request, context: ServerContext) async throws -> Response {
        let event = try Self.id(context.parameters.get("eventId"))
        let input = try await request.decodeJSON(GuestInput.self, context: context)
        let guest = try await mapped { try await admin.addGuest(input, event: EventID(event)) }
        return try Response.json(GuestRecord(guest), status: .created)
    }

    @Sendable func importGuests(_ request: Request, context: ServerContext) async throws -> Response {
        let event = try Self.id(context.parameters.get("eventId"))
        let buffer = try await request.body.collect(upTo: context.maxUploadSize)
        let csv = Array(buffer.readableBytesView)
        let outcome = try await mapped { try await admin.importGuests(csv: csv, event: EventID(event)) }
        return try Response.json(
            ImportAnswer(imported: outcome.added.count, updated: outcome.updated.count, unchanged: outcome.unchanged))
    }

    @Sendable func cancelGuest(_ request: Request, context: ServerContext) async throws -> Response {
        let event = try Self.id(context.parameters.get("eventId"))
        let code = context.parameters.get("guestId") ?? ""
        let guest = try await mapped { try await admin.cancelGuest(code, event: EventID(event)) }
        return try Response.json(GuestRecord(guest))
    }

    @Sendable func createEnrolmentCode(_ request: Request, context: ServerContext) async throws -> Response {
        let event = try Self.id(context.parameters.get("eventId"))
        let buffer = try await request.body.collect(upTo: context.bodyLimit)
        var body = EnrolmentCodeRequest()
        if buffer.readableBytes > 0 {
            body = try decodeAPIJSON(EnrolmentCodeRequest.self, from: buffer)
        }
        let answer = try await mapped { [body] in
            try await admin.createEnrolmentCode(
                event: EventID(event), replacesDevice: body.replacesDevice, list: body.list.map(ListID.init),
                direction: try CheckinAdmin.direction(body.direction))
        }
        return try Response.json(answer, status: .created)
    }

    @Sendable func export(_ request: Request, context: ServerContext) async throws -> Response {
        let event = try Self.id(context.parameters.get("eventId"))
        let lines = try await mapped { try await admin.exportLines(event: EventID(event)) }
        let text = lines.map { $0 + "\n" }.joined()
        return Response(
            status: .ok, headers: [.contentType: "application/x-ndjson"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    @Sendable func devices(_ request: Request, context: ServerContext) async throws -> Response {
        let event = try Self.id(context.parameters.get("eventId"))
        let devices = try await mapped { () async throws -> [Device] in
            let known = try await admin.existingEvent(EventID(event))
            return try await admin.repository.devices(tenant: known.tenant)
        }
        return try Response.json(devices.map(DeviceStatus.init))
    }

    static func id(_ text: String?) throws -> UInt32 {
        guard let text, let id = UInt32(text), id > 0 else { throw APIFailure.notFound }
        return id
    }

    /// `CheckinAdmin`'s failures as answers: 404, 400, 422 with the bad lines.
    func mapped<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let failure as CheckinAdmin.Failure {
            switch failure {
            case .notFound: throw APIFailure.notFound
            case .invalid(let message): throw APIFailure.badRequest(message)
            case .badLines(let problems):
                throw APIFailure(
                    Self.unprocessable,
                    APIError(
                        code: "bad_lines", message: "nothing was imported: \(problems.count) bad line(s)",
                        hint: "fix the lines and import again",
                        lines: problems.map { APIError.LineProblem(line: $0.line, message: $0.message) }))
            }
        }
    }
}
