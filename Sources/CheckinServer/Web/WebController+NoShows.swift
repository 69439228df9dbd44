import CheckinCore
import Foundation
import Hummingbird

extension WebController {
    /// `GET /events/{id}/no-shows`: the active guests not checked in, with how to reach them, by name; once
    /// the event has started they are the no-shows, before it everyone not here yet.
    @Sendable func noShows(_ request: Request, context: EventPageContext) async throws -> Response {
        let (signed, event) = (context.signed, context.event)
        let guests = try await repository.searchGuests(event: event.id, text: "", limit: Int(Int32.max))
        let missing = guests.filter { $0.status == .active && $0.checkIn == nil }
        let now = clock.now()
        let time = TimeText(now: now, timeZone: pages.zone(of: event))
        let started = now >= event.startsAt
        let people = missing.reduce(0) { $0 + $1.partySize }
        let rows = missing.map { guest in
            [
                "name": guest.name, "code": guest.id.displayCode, "party": String(guest.partySize),
                "email": guest.email ?? "", "phone": guest.phone ?? "", "id": guest.id.text,
            ]
        }
        let values: [String: Any] = [
            "eventId": String(event.id.rawValue), "eventName": event.name, "guests": rows, "hasGuests": !rows.isEmpty,
            "heading": started ? "No-shows" : "Not arrived yet",
            "countText": "\(TimeText.counted(missing.count, "guest")) (\(TimeText.counted(people, "person", "people")))"
                + (started
                    ? " not checked in since the event started at \(time.dayAndTime(event.startsAt))."
                    : " not checked in; the event starts at \(time.dayAndTime(event.startsAt)).")
                ,
        ]
        return pages.html("no-shows", values, signed: signed)
    }
}
