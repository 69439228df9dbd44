import Foundation

extension ListRules {
    /// Decides a scan of a guest with `ticketType` at a door of this list going `direction`, at `now`, given the
    /// guest's passages through this list so far (any order), days counted in `timeZone` (the event's).
    ///
    /// An exit is always let through. An entry is looked at in this order: the ticket type; a guest inside already
    /// (that is the double entry, whatever else holds); re-entry after an exit; the opening window; the entries in
    /// all, then today; the minutes since the last entry. The first that refuses names the reason.
    public func decide(
        _ direction: Direction, ticketType: String, history: [Passage], now: Date, timeZone: TimeZone
    ) -> Decision {
        let passages = history.sorted { $0.at < $1.at }
        let inside = passages.last?.direction == .entry
        if direction == .exit { return .exit(wasInside: inside) }
        if let ticketTypes, !ticketTypes.contains(ticketType) {
            return .refused(.ticketType, reason: "not valid for this door: \(ticketType)")
        }
        let entries = passages.filter { $0.direction == .entry }
        if inside, let last = entries.last { return .alreadyInside(since: last.at) }
        if !allowsReentry, let left = passages.last(where: { $0.direction == .exit }) {
            return .refused(.noReentry, reason: "no re-entry: left at \(Self.clock(left.at, timeZone))")
        }
        if let opensAt, now < opensAt {
            return .refused(.window, reason: "opens \(Self.when(opensAt, from: now, timeZone))")
        }
        if let closesAt, now >= closesAt {
            return .refused(.window, reason: "closed \(Self.when(closesAt, from: now, timeZone))")
        }
        if let maximumEntries, entries.count >= maximumEntries {
            return .refused(
                .maximumEntries, reason: maximumEntries == 1 ? "one entry only" : "at most \(maximumEntries) entries")
        }
        if let maximumEntriesPerDay {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = timeZone
            let today = entries.filter { calendar.isDate($0.at, inSameDayAs: now) }
            if today.count >= maximumEntriesPerDay, let first = today.first {
                let what = maximumEntriesPerDay == 1 ? "one entry per day" : "\(maximumEntriesPerDay) entries per day"
                return .refused(.maximumPerDay, reason: "\(what): entered at \(Self.clock(first.at, timeZone))")
            }
        }
        if let minutes = minimumMinutesBetweenEntries, let last = entries.last,
            now < last.at.addingTimeInterval(Double(minutes) * 60)
        {
            let again = last.at.addingTimeInterval(Double(minutes) * 60)
            return .refused(
                .minimumInterval,
                reason: "entered at \(Self.clock(last.at, timeZone)); again from "
                    + Self.clock(again, timeZone))
        }
        return .admit
    }

    /// "18:00" in `timeZone`.
    static func clock(_ instant: Date, _ timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.hour, .minute], from: instant)
        let hour = parts.hour ?? 0
        let minute = parts.minute ?? 0
        return (hour < 10 ? "0" : "") + "\(hour):" + (minute < 10 ? "0" : "") + "\(minute)"
    }

    /// "at 18:00" when `instant` is on the day of `now` in `timeZone`, else "on 2026-12-03 at 18:00".
    static func when(_ instant: Date, from now: Date, _ timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        if calendar.isDate(instant, inSameDayAs: now) { return "at " + clock(instant, timeZone) }
        let day = calendar.dateComponents([.year, .month, .day], from: instant)
        let month = day.month ?? 1
        let date = day.day ?? 1
        let text = "\(day.year ?? 1970)-" + (month < 10 ? "0" : "") + "\(month)-" + (date < 10 ? "0" : "") + "\(date)"
        return "on \(text) at " + clock(instant, timeZone)
    }
}
