import CheckinAdmin
import CheckinCore
import Foundation
import Hummingbird
import WireAPI

/// `/events/{id}/lists`: the event's check-in lists and a form for a new one (issue 51).
extension WebController {
    @Sendable func listsPage(_ request: Request, context: EventPageContext) async throws -> Response {
        let notice = Self.queryValue(request, "notice").flatMap(Self.notices)
        return try await listsPage(context.signed, context.event, notice: notice)
    }

    func listsPage(
        _ signed: OrganizerSessions.Signed, _ event: Event, notice: String?, typed: ListForm? = nil,
        problem: String? = nil, status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        let time = TimeText(now: clock.now(), timeZone: pages.zone(of: event))
        let lists = try await repository.lists(event: event.id)
        let view = ListsView(
            eventId: event.id.rawValue, eventName: event.name, csrf: signed.session.csrfToken, notice: notice,
            problem: problem,
            rows: lists.map { list in
                ListsView.Row(
                    id: list.id.rawValue, name: list.name, rules: list.rulesSummary { time.dayAndTime($0) },
                    version: list.version)
            }, typed: typed ?? ListForm())
        return pages.html("lists", view, signed: signed, status: status)
    }

    struct ListForm: Decodable {
        var csrf: String?
        var name: String?
        var ticketTypes: String?
        var maxEntries: String?
        var maxPerDay: String?
        var minMinutes: String?
        var noReentry: String?
        var capacity: String?

        /// The list's values; a number that does not read is named (its range is `CheckinAdmin`'s to hold).
        func input() throws -> ListInput {
            func number(_ text: String?, _ what: String) throws -> Int? {
                guard let text = text?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
                guard let value = Int(text) else {
                    throw CheckinAdmin.Failure.invalid("\(what) '\(text)' is not a number")
                }
                return value
            }
            let types = ticketTypes?.split(separator: ",").map(String.init)
                .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            return ListInput(
                name: name ?? "", ticketTypes: types?.isEmpty == false ? types : nil,
                maxEntries: try number(maxEntries, "the entries in all"),
                maxPerDay: try number(maxPerDay, "the entries per day"),
                minMinutesBetweenEntries: try number(minMinutes, "the minutes between entries"),
                allowsReentry: noReentry == nil, capacity: try number(capacity, "the capacity"))
        }
    }

    @Sendable func createListFromPage(_ request: Request, context: EventPageContext) async throws -> Response {
        let form = try await Self.form(ListForm.self, request, context)
        if let refusal = try await refusedUnlessCSRF(request, context, csrf: form.csrf) { return refusal }
        let (signed, event) = (context.signed, context.event)
        do {
            _ = try await admin(signed).createList(try form.input(), event: event.id)
        } catch let failure as CheckinAdmin.Failure {
            return try await listsPage(
                signed, event, notice: nil, typed: form, problem: "Not made: \(failure)", status: .unprocessableContent)
        }
        return Self.redirect("/events/\(event.id.rawValue)/lists?notice=list-made")
    }
}

struct ListsView {
    struct Row {
        var id: UInt32
        var name: String
        var rules: String
        var version: Int
    }

    var eventId: UInt32
    var eventName: String
    var csrf: String
    var notice: String?
    var problem: String?
    var rows: [Row]
    var typed: WebController.ListForm
}
