import CheckinCore
import Foundation
import Hummingbird

extension WebController {
    /// The event's double-entry report: each guest admitted at two doors while offline, both doors and times,
    /// and the gap.
    @Sendable func doubleEntries(_ request: Request, context: EventPageContext) async throws -> Response {
        let (signed, event) = (context.signed, context.event)
        let entries = try await repository.doubleEntries(event: event.id)
        let time = TimeText(now: clock.now(), timeZone: pages.zone(of: event))
        let rows = entries.map { entry in
            [
                "name": entry.guestName, "code": entry.guest.displayCode, "checkInDoor": entry.checkInDoor,
                "checkInTime": time.dayAndTime(entry.checkInAt), "otherDoor": entry.otherDoor,
                "otherTime": time.dayAndTime(entry.otherAt), "gap": Self.gapText(entry.gapSeconds),
            ]
        }
        let count = entries.count
        let values: [String: Any] = [
            "eventId": String(event.id.rawValue), "eventName": event.name, "entries": rows, "hasEntries": count > 0,
            "zone": pages.zone(of: event).identifier,
            "countText": count == 0
                ? "No double entries." : count == 1 ? "1 double entry." : "\(count) double entries.",
        ]
        return pages.html("double-entries", values, signed: signed)
    }

    /// "12 s", "4 min 3 s", "2 h 5 min".
    static func gapText(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        if s < 60 { return "\(s) s" }
        if s < 3600 { return "\(s / 60) min \(s % 60) s" }
        return "\(s / 3600) h \(s % 3600 / 60) min"
    }
}
