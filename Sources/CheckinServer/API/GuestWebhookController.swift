import CheckinAdmin
import CheckinCore
import CheckinWebhooks
import Foundation
import Hummingbird
import PassFormat
import WireAPI

/// `POST /v1/webhooks/tenants/{tenant}/guests`: the organizer's own system adds, updates or cancels a guest.
/// Verified as Standard Webhooks says (HMAC-SHA256 with the tenant's `whsec_` secret, a timestamp within 5
/// minutes); a `webhook-id` seen before is acknowledged and not processed again. Every refusal answers the
/// same 401, and the audit log keeps why.
struct GuestWebhookController {
    let repository: any CheckinRepository
    let clock: any ServerClock
    let limits: EdgeLimits

    func addRoutes(to router: Router<ServerContext>) {
        router.post("v1/webhooks/tenants/:tenant/guests", use: receive)
    }

    static let refused = APIFailure(
        .unauthorized,
        APIError(
            code: "bad_signature", message: "the webhook's signature did not verify",
            hint:
                "sign with the tenant's whsec_ secret (checkin-server webhook-secret) as Standard Webhooks says, with the current time"
        ))

    @Sendable func receive(_ request: Request, context: ServerContext) async throws -> Response {
        let now = clock.now()
        guard let tenantText = context.parameters.get("tenant"), let number = UInt32(tenantText) else {
            throw Self.refused
        }
        let tenant = TenantID(number)
        let body = try await request.body.collect(upTo: context.bodyLimit)
        let bytes = [UInt8](body.readableBytesView)
        let secrets = WebhookSecret.valid(try await repository.webhookSecrets(tenant: tenant), now: now)
            .compactMap { try? WebhookSecretKey($0.secret) }
        let webhookID: String
        do {
            webhookID = try StandardWebhook.verify(
                id: request.headers[.webhookID], timestamp: request.headers[.webhookTimestamp],
                signature: request.headers[.webhookSignature], body: bytes, secrets: secrets, now: now)
        } catch {
            // Anyone may send these: at most a few rows a minute from one address (ThrottledAudit).
            if try await repository.tenant(tenant) != nil {
                let client = ClientAddress.of(
                    request, peer: context.clientAddress, trustedProxies: limits.trustedProxies)
                try await ThrottledAudit(repository: repository, clock: clock, limits: limits).append(
                    AuditEntry(
                        at: now, tenant: tenant, device: nil, action: "webhook_refused",
                        detail: "\(error) from " + AuditText.clipped(client, to: 64)),
                    key: "client:" + client)
            }
            throw Self.refused
        }
        let payload = try decodeAPIJSON(GuestWebhookPayload.self, from: body)
        let change = try Self.change(payload)
        let event = EventID(payload.data.eventId)
        let outcome: GuestWebhookOutcome
        do {
            outcome = try await repository.applyGuestWebhook(
                id: webhookID, tenant: tenant, event: event, change: change, at: now)
        } catch RepositoryError.notFound {
            throw APIFailure(
                .notFound,
                APIError(
                    code: "not_found", message: "tenant \(tenant) has no event \(event)",
                    hint: "send the id of one of this tenant's events in data.eventId"))
        }
        try await repository.appendAudit(
            AuditEntry(
                at: now, tenant: tenant, device: nil, action: "guest_webhook",
                detail: "\(webhookID) \(payload.type) '\(payload.data.reference)': \(Self.describe(outcome))"))
        return try Response.json(Self.result(outcome))
    }

    static func describe(_ outcome: GuestWebhookOutcome) -> String {
        switch outcome {
        case .refused(let why): "refused: \(why)"
        case .updated(_, let reissued): reissued ? "updated, pass sent again" : "updated"
        default: outcome.name
        }
    }

    static func result(_ outcome: GuestWebhookOutcome) -> GuestWebhookResult {
        switch outcome {
        case .duplicate: GuestWebhookResult(outcome: "duplicate", message: "this webhook-id was processed before")
        case .added(let g), .cancelled(let g):
            GuestWebhookResult(outcome: outcome.name, guestId: g.id.text, confirmationCode: g.id.displayCode)
        case .updated(let g, let reissued):
            GuestWebhookResult(
                outcome: outcome.name, guestId: g.id.text, confirmationCode: g.id.displayCode, reissued: reissued)
        case .refused(let why): GuestWebhookResult(outcome: "refused", message: why)
        }
    }

    /// The change a verified payload asks for, or a 400 that names what is wrong.
    static func change(_ payload: GuestWebhookPayload) throws -> GuestWebhookChange {
        let data = payload.data
        guard (1...200).contains(data.reference.count) else {
            throw APIFailure.badRequest("data.reference must be 1 to 200 characters (your system's id for the guest)")
        }
        switch payload.type {
        case "guest.cancelled":
            return .cancel(reference: data.reference)
        case "guest.created", "guest.updated":
            let name = data.name?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            let party = data.partySize ?? 1
            guard (1...99).contains(party) else { throw APIFailure.badRequest("data.partySize must be from 1 to 99") }
            let email = data.email.flatMap { $0.isEmpty ? nil : $0 }
            if let problem = GuestFields.problem(
                name: name, email: email, phone: data.phone, ticketType: data.givenTicketType, note: data.checkInNote,
                arrivalAlert: data.arrivalAlert)
            {
                throw APIFailure.badRequest("data for \(payload.type): \(problem)")
            }
            return .upsert(
                ExternalGuest(
                    reference: data.reference, name: name, email: email,
                    phone: data.phone.flatMap { $0.isEmpty ? nil : $0 }, partySize: party,
                    ticketType: data.givenTicketType,
                    checkInNote: data.checkInNote, arrivalAlert: data.arrivalAlert))
        default:
            throw APIFailure.badRequest(
                "unknown webhook type '\(payload.type)'; known: \(GuestWebhookPayload.types.joined(separator: ", "))")
        }
    }
}

extension HTTPFields.Element.Name {
    static let webhookID = Self("webhook-id")!
    static let webhookTimestamp = Self("webhook-timestamp")!
    static let webhookSignature = Self("webhook-signature")!
}
