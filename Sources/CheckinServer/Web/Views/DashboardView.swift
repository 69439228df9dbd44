import CheckinCore
import Foundation

/// What the event dashboard shows: checked in against expected, the chart, the last 20 check-ins, and guests
/// with an arrival alert who came in the last 30 minutes.
struct DashboardView {
    struct Arrival {
        var name: String
        var door: String
        var time: String
        var party: String
        var alert: String?
        /// The corrected time sits outside the event's window (`Event.isOutsideWindow`).
        var outsideWindow: Bool
    }

    /// "Just arrived", for the alert highlights.
    static let alertWindow: TimeInterval = 30 * 60
    static let recentCount = 20
    /// Alerted guests listed at the most (more than anyone at the door reads).
    static let alertedCount = 100

    var eventId: UInt32
    var eventName: String
    var asOf: String
    var zone: String
    var checkedIn: Int
    var guests: Int
    var arrivedPeople: Int
    var expectedPeople: Int
    var percent: Int
    var cancelled: Int
    var hasCancelled: Bool
    /// Guests admitted at two doors while offline (the double-entry report's rows).
    var doubleEntries: Int
    var doubleEntriesWord: String
    var chart: String
    /// "5 minutes", "30 minutes", "2 hours": the width of the chart's bars.
    var chartWidth: String
    var recent: [Arrival]
    var hasRecent: Bool
    var alerts: [Arrival]
    var hasAlerts: Bool
    /// Each check-in list: arrivals, exits, inside now and whether it is at its capacity (issue 51).
    var lists: [ListRow]

    struct ListRow {
        var id: UInt32
        var name: String
        var arrivals: Int
        var exits: Int
        var inside: Int
        var capacity: String
        var full: Bool
    }

    init(
        event: Event, counts: EventCounts, checkIns: [DoorTime], recent: [Guest], alerted: [Guest],
        doubleEntries: Int, now: Date, timeZone: TimeZone, lists: [ListRow] = []
    ) {
        self.lists = lists
        self.doubleEntries = doubleEntries
        doubleEntriesWord = doubleEntries == 1 ? "entry" : "entries"
        let time = TimeText(now: now, timeZone: timeZone)
        eventId = event.id.rawValue
        eventName = event.name
        asOf = time.time(now)
        zone = time.zone
        checkedIn = counts.checkedIn
        guests = counts.guests
        arrivedPeople = counts.arrivedPeople
        expectedPeople = counts.expectedPeople
        percent = counts.guests == 0 ? 0 : counts.checkedIn * 100 / counts.guests
        cancelled = counts.cancelled
        hasCancelled = counts.cancelled > 0
        let histogram = ArrivalHistogram(checkIns: checkIns.map { ($0.door, $0.at) }, now: now)
        chart = ArrivalChart.svg(histogram, timeText: time)
        let minutes = Int(histogram.bucket / 60)
        chartWidth = minutes < 60 ? "\(minutes) minutes" : minutes == 60 ? "hour" : "\(minutes / 60) hours"
        func arrival(_ guest: Guest) -> Arrival {
            let checkIn = guest.checkIn
            return Arrival(
                name: guest.name, door: checkIn?.door ?? "", time: checkIn.map { time.time($0.at) } ?? "",
                party: "\(checkIn?.arrived ?? 0) of \(guest.partySize)",
                alert: guest.arrivalAlert.flatMap { $0.isEmpty ? nil : $0 },
                outsideWindow: checkIn.map { event.isOutsideWindow($0.at) } ?? false)
        }
        self.recent = recent.map(arrival)
        hasRecent = !recent.isEmpty
        alerts = alerted.map(arrival).filter { $0.alert != nil }
        hasAlerts = !alerts.isEmpty
    }
}
