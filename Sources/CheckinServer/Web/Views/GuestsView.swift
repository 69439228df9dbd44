import BoundedNumbers
import CheckinAdmin
import CheckinCore
import Foundation
import PassFormat

/// The guest list: the search, the matches, and what the last action did.
struct GuestsView {
    struct Row {
        var id: String
        var name: String
        var email: String
        var code: String
        var party: String
        var state: String
        var cancellable: Bool
        /// Active and not checked in: the Check in button.
        var canCheckIn: Bool
        /// Checked in: the Undo check-in button.
        var checkedIn: Bool
        var eventId: UInt32
        var csrf: String
        /// The page's nonce: a check-in form sent twice is applied once.
        var nonce: String
    }

    struct Line {
        var line: Int
        var message: String
    }

    /// A pass that has not reached its guest: failed for good (with a retry button), or retrying.
    struct Pass {
        var id: String
        var name: String
        var recipient: String
        var step: String
        var error: String
        var next: String
        var failed: Bool
        var eventId: UInt32
        var csrf: String
    }

    /// Guests on one page of the list.
    static let limit = 100
    /// How many pages a list of `total` guests takes (one when empty).
    static func pages(_ total: Int) -> Int { max(1, (total + limit - 1) / limit) }
    /// The pages a link may ask for: 10 million guests. A page past it is its last, as a page past the list's end
    /// is the list's last, so `(page - 1) * limit` always fits (`page=9223372036854775807` trapped there).
    static let pageNumbers = 1...100_000
    /// The page a link's `page` asks for: within `pageNumbers`, the first when it is missing or not a number.
    static func page(_ text: String?) -> Int {
        text.flatMap { BoundedInteger.clamped($0, to: pageNumbers) } ?? 1
    }
    static let passLimit = 20
    /// How the list is ordered (the database orders and pages it).
    typealias Sort = GuestOrder

    struct SortLink {
        var label: String
        var url: String
        var current: Bool
    }

    var eventId: UInt32
    var eventName: String
    var csrf: String
    var query: String
    var guests: [Row]
    var shown: String
    var sortLinks: [SortLink]
    var previous: String?
    var next: String?
    var notice: String?
    /// What went wrong with a form, shown in that form's card (where the organizer is looking), not at the top
    /// of the page.
    enum Form { case list, walkIn, csvImport }
    /// A problem with an action of the list (a check-in refused): above the list.
    var listProblem: String?
    var walkInProblem: String?
    var importProblem: String?
    var lines: [Line]
    var hasLines: Bool
    /// Bad lines beyond the first 50 (a wrong file can have thousands): counted, not listed.
    var moreLines: Int?
    /// What was typed into the walk-in form, kept when it was refused.
    var walkIn: [String: String]
    static let listedProblems = 50
    var passes: [Pass] = []
    var hasPasses = false

    mutating func showPasses(_ issuances: [PassIssuance], names: [GuestID: String], timeZone: TimeZone, now: Date) {
        let time = TimeText(now: now, timeZone: timeZone)
        passes = issuances.map { issuance in
            let failed = issuance.step == .failed
            return Pass(
                id: issuance.id, name: names[issuance.guest] ?? issuance.guest.displayCode,
                recipient: issuance.recipient ?? "no address",
                step: (failed ? issuance.failedStep ?? .failed : issuance.step).rawValue,
                error: issuance.lastError ?? "",
                next: failed
                    ? "failed after \(issuance.attempts) attempts"
                    : "attempt \(issuance.attempts + 1) at \(time.time(issuance.nextAttemptAt))",
                failed: failed, eventId: eventId, csrf: csrf)
        }
        hasPasses = !passes.isEmpty
    }

    init(
        event: Event, list: GuestListPage, query: String, csrf: String, notice: String?,
        problem: (text: String, form: Form)? = nil, lines: [GuestCSV.Problem] = [],
        walkIn: [String: String] = ["partySize": "1"], sort: Sort = .name, page: Int = 1, timeZone: TimeZone,
        now: Date
    ) {
        let time = TimeText(now: now, timeZone: timeZone)
        eventId = event.id.rawValue
        eventName = event.name
        self.csrf = csrf
        self.query = query
        let nonce = Secrets.randomBase32(bytes: 10)
        let pages = Self.pages(list.total)
        let page = min(max(1, page), pages)
        let listed = list.guests
        let count = TimeText.counted(list.total, "guest")
        let matching = query.isEmpty ? count : "\(count) \(list.total == 1 ? "matches" : "match") '\(query)'"
        shown =
            pages == 1
            ? matching
            : "\(matching): \((page - 1) * Self.limit + 1)–\((page - 1) * Self.limit + listed.count), page \(page) of \(pages)"
        func url(sort: Sort, page: Int) -> String {
            var parts: [String] = []
            if !query.isEmpty {
                parts.append("q=" + (query.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""))
            }
            if sort != .name { parts.append("sort=\(sort.rawValue)") }
            if page > 1 { parts.append("page=\(page)") }
            return "/events/\(event.id.rawValue)/guests" + (parts.isEmpty ? "" : "?" + parts.joined(separator: "&"))
        }
        sortLinks = Sort.allCases.map { SortLink(label: $0.rawValue, url: url(sort: $0, page: 1), current: $0 == sort) }
        previous = page > 1 ? url(sort: sort, page: page - 1) : nil
        next = page < pages ? url(sort: sort, page: page + 1) : nil
        self.guests = listed.map { guest in
            let state: String
            if guest.status == .cancelled {
                state = "cancelled"
            } else if let checkIn = guest.checkIn {
                state = "checked in at \(checkIn.door), \(time.time(checkIn.at)) (\(checkIn.arrived) arrived)"
            } else {
                state = "expected"
            }
            return Row(
                id: guest.id.text, name: guest.name, email: guest.email ?? "", code: guest.id.displayCode,
                party: String(guest.partySize), state: state, cancellable: guest.status == .active,
                canCheckIn: guest.status == .active && guest.checkIn == nil, checkedIn: guest.checkIn != nil,
                eventId: event.id.rawValue, csrf: csrf, nonce: nonce)
        }
        self.notice = notice
        listProblem = problem.flatMap { $0.form == .list ? $0.text : nil }
        walkInProblem = problem.flatMap { $0.form == .walkIn ? $0.text : nil }
        importProblem = problem.flatMap { $0.form == .csvImport ? $0.text : nil }
        self.lines = lines.prefix(Self.listedProblems).map { Line(line: $0.line, message: $0.message) }
        hasLines = !lines.isEmpty
        moreLines = lines.count > Self.listedProblems ? lines.count - Self.listedProblems : nil
        self.walkIn = walkIn
    }
}

/// The device list, with a new enrolment code when one was just made.
struct DevicesView {
    struct Row {
        var id: String
        var door: String
        var enrolledAt: String
        var enrolledBy: String
        var state: String
        var revoked: Bool
        var eventId: UInt32
        var csrf: String
        /// "VIP lounge · exit": the list the kiosk serves and its direction.
        var serves: String
        /// The lists to move it to, its own selected.
        var options: [ListOption]
        var exit: Bool
    }

    struct ListOption {
        var id: UInt32
        var name: String
        var selected: Bool
    }

    struct NewCode {
        var text: String
        var expires: String
        var server: String
        var qr: String
    }

    var eventId: UInt32
    var eventName: String
    var csrf: String
    var rows: [Row]
    var code: NewCode?
    var notice: String?
    var alerts: OfflineAlertsView
    /// The lists a new enrolment code may be made for, the first selected.
    var lists: [ListOption]

    init(
        event: Event, devices: [EventDevice], lists: [CheckInList], csrf: String, code: NewCode?, notice: String?,
        alerts: OfflineAlertsView, now: Date, timeZone: TimeZone
    ) {
        let time = TimeText(now: now, timeZone: timeZone)
        eventId = event.id.rawValue
        eventName = event.name
        self.csrf = csrf
        self.code = code
        self.notice = notice
        self.alerts = alerts
        self.lists = lists.enumerated().map { ListOption(id: $1.id.rawValue, name: $1.name, selected: $0 == 0) }
        rows = devices.map { enrolled in
            let device = enrolled.device
            let health = DeviceHealth(lastSeen: device.lastSeenAt, now: now)
            // A list gone from the event (none is deleted today) or none: the first list.
            let served = lists.first { $0.id == device.gate.list } ?? lists.first
            return Row(
                id: device.id, door: device.lastReport?.door ?? device.door,
                enrolledAt: time.relative(device.enrolledAt), enrolledBy: enrolled.enrolledBy,
                state: device.revoked ? "revoked" : MonitorView.pill(health), revoked: device.revoked,
                eventId: event.id.rawValue, csrf: csrf,
                serves: (served?.name ?? CheckInList.firstName) + " · " + device.gate.direction.rawValue,
                options: lists.map { ListOption(id: $0.id.rawValue, name: $0.name, selected: $0.id == served?.id) },
                exit: device.gate.direction == .exit)
        }
    }
}
