import CheckinAdmin
import CheckinCore
import Hummingbird
import PassFormat
import WireAPI

/// `GET /v1/events/{eventId}/roster`: the first download in pages of at most 500 ordered by guest id, or
/// the rows changed since a change cursor. Below the event's minimum kiosk version: `426`.
struct RosterController {
    let repository: any CheckinRepository
    let scope: TenantScope
    let clock: any ServerClock

    static let upgradeRequired = HTTPResponse.Status(code: 426, reasonPhrase: "Upgrade Required")

    func addRoutes(to group: RouterGroup<ServerContext>) {
        group.get("events/:eventId/roster", use: page)
    }

    @Sendable func page(_ request: Request, context: ServerContext) async throws -> Response {
        let event = try await scope.event(
            context.parameters.get("eventId"), for: context.requireDevice(), request: request)
        let reported = request.headers[CheckinHeader.kioskVersion]
        guard KioskVersion.isAllowed(reported: reported, minimum: event.minimumKioskVersion) else {
            throw APIFailure(
                Self.upgradeRequired,
                APIError(
                    code: "update_required",
                    message:
                        "event \(event.id) requires kiosk \(event.minimumKioskVersion!) or newer; this kiosk is \(reported ?? "unknown")",
                    hint: "update the kiosk; its queued check-ins are still accepted"))
        }
        let query = request.uri.queryParameters
        var limit = RosterPage.maximumSize
        if let text = query.get("limit") {
            guard let n = Int(text), (1...RosterPage.maximumSize).contains(n) else {
                throw APIFailure.badRequest("limit must be from 1 to \(RosterPage.maximumSize)")
            }
            limit = n
        }
        let slice: RosterSlice
        let delta = query.get("changesSince") != nil
        do {
            if let since = query.get("changesSince") {
                slice = try await repository.rosterChanges(
                    event: event.id, since: query.get("page") ?? since, limit: limit)
            } else {
                slice = try await repository.rosterPage(event: event.id, page: query.get("page"), limit: limit)
            }
        } catch RepositoryError.badCursor {
            throw APIFailure(
                .badRequest,
                APIError(
                    code: RosterPage.unknownCursor, message: "the page or change cursor is not one this server made",
                    hint: "start the download again without 'page' and 'changesSince'"))
        }
        var guests = slice.guests.map(GuestRecord.init)
        // A delta's rows are signed, so a kiosk can pass them on to its peers (a first download's are not: every
        // door downloads its own).
        if delta {
            guests = try await PeerCredentialIssuer(repository: repository).signedRows(
                guests, tenant: event.tenant, event: event.id, at: clock.now())
        }
        let page = RosterPage(
            guests: guests, nextPage: slice.nextPage, complete: slice.isComplete,
            changeCursor: slice.changeCursor, total: slice.total, serverTime: clock.now())
        return Response.json(bytes: page.encodedJSON())
    }
}
