import CheckinCore
import Foundation
import Hummingbird

extension WebController {
    /// `GET /events/{id}/no-shows`: the active guests not checked in, with how to reach them, by name; once
    /// the event has started they are the no-shows, before it everyone not here yet.
    @Sendable func noShows(_ request: Request, context: EventPageContext) async throws -> Response {
        let (signed, event) = (context.signed, context.event)
        // By name, 100 a page: the database filters, counts and pages (an event of 100,000 guests included).
        let wanted = GuestQuery(notArrivedOnly: true)
        var page = GuestsView.page(Self.queryValue(request, "page"))
        var list = try await repository.guestList(
            event: event.id, wanted, offset: (page - 1) * GuestsView.limit, limit: GuestsView.limit)
        let pageCount = GuestsView.pages(list.total)
        if list.guests.isEmpty, page > pageCount {
            page = pageCount
            list = try await repository.guestList(
                event: event.id, wanted, offset: (page - 1) * GuestsView.limit, limit: GuestsView.limit)
        }
        let now = clock.now()
        let time = TimeText(now: now, timeZone: self.pages.zone(of: event))
        let started = now >= event.startsAt
        let rows = list.guests.map { guest in
            [
                "name": guest.name, "code": guest.id.displayCode, "party": String(guest.partySize),
                "email": guest.email ?? "", "phone": guest.phone ?? "", "id": guest.id.text,
            ]
        }
        let base = "/events/\(event.id.rawValue)/no-shows"
        var values: [String: Any] = [
            "eventId": String(event.id.rawValue), "eventName": event.name, "guests": rows, "hasGuests": !rows.isEmpty,
            "heading": started ? "No-shows" : "Not arrived yet",
            "countText":
                "\(TimeText.counted(list.total, "guest")) (\(TimeText.counted(list.people, "person", "people")))"
                + (started
                    ? " not checked in since the event started at \(time.dayAndTime(event.startsAt))."
                    : " not checked in; the event starts at \(time.dayAndTime(event.startsAt))."),
            "paged": pageCount > 1,
            "shown":
                "\((page - 1) * GuestsView.limit + 1)–\((page - 1) * GuestsView.limit + rows.count), page \(page) of \(pageCount)",
        ]
        if page > 1 { values["previous"] = base + (page == 2 ? "" : "?page=\(page - 1)") }
        if page < pageCount { values["next"] = base + "?page=\(page + 1)" }
        return pages.html("no-shows", values, signed: signed)
    }
}
