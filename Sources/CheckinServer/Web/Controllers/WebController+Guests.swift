import CheckinAdmin
import CheckinCore
import Foundation
import Hummingbird
import MultipartKit
import PassFormat
import WireAPI

extension WebController {
    /// The organizer acting: the admin operations audit them by address.
    func admin(_ signed: OrganizerSessions.Signed) -> CheckinAdmin {
        CheckinAdmin(repository: repository, clock: clock, actor: signed.organizer.email)
    }

    /// The session's CSRF token on a form posted about an event: nil when it is the right one, else the 403
    /// to answer (audited).
    func refusedUnlessCSRF(_ request: Request, _ context: EventPageContext, csrf: String?) async throws -> Response? {
        guard let sent = csrf, OrganizerSessions.same(sent, context.signed.session.csrfToken) else {
            return try await refused(request, organizer: context.signed)
        }
        return nil
    }

    // MARK: Guests

    @Sendable func guests(_ request: Request, context: EventPageContext) async throws -> Response {
        let (signed, event) = (context.signed, context.event)
        let query = Self.queryValue(request, "q") ?? ""
        var notice = Self.queryValue(request, "notice").flatMap(Self.notices)
        if Self.queryValue(request, "notice") == "imported",
            let count = Self.queryValue(request, "count").flatMap(Int.init),
            count >= 0
        {
            let updated = Self.queryValue(request, "updated").flatMap(Int.init) ?? 0
            let unchanged = Self.queryValue(request, "unchanged").flatMap(Int.init) ?? 0
            notice = Self.imported(count, updated: max(0, updated), unchanged: max(0, unchanged))
        }
        let sort = Self.queryValue(request, "sort").flatMap(GuestsView.Sort.init) ?? .name
        let page = GuestsView.page(Self.queryValue(request, "page"))
        return try await guestsPage(signed, event, query: query, notice: notice, sort: sort, page: page)
    }

    func guestsPage(
        _ signed: OrganizerSessions.Signed, _ event: Event, query: String, notice: String?,
        problem: (text: String, form: GuestsView.Form)? = nil,
        lines: [GuestCSV.Problem] = [], walkIn: [String: String] = ["partySize": "1"],
        sort: GuestsView.Sort = .name, page: Int = 1, status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        // The requested page, or the last one when it lies past the end (a list that shrank since).
        let wanted = GuestQuery(text: query, order: sort)
        var page = min(max(GuestsView.pageNumbers.lowerBound, page), GuestsView.pageNumbers.upperBound)
        var list = try await repository.guestList(
            event: event.id, wanted, offset: (page - 1) * GuestsView.limit, limit: GuestsView.limit)
        if list.guests.isEmpty, page > GuestsView.pages(list.total) {
            page = GuestsView.pages(list.total)
            list = try await repository.guestList(
                event: event.id, wanted, offset: (page - 1) * GuestsView.limit, limit: GuestsView.limit)
        }
        var view = GuestsView(
            event: event, list: list, query: query, csrf: signed.session.csrfToken, notice: notice,
            problem: problem, lines: lines, walkIn: walkIn, sort: sort, page: page, timeZone: pages.zone(of: event),
            now: clock.now())
        let stuck = try await repository.issuances(event: event.id, problemsOnly: true, limit: GuestsView.passLimit)
        var names: [GuestID: String] = [:]
        for issuance in stuck where names[issuance.guest] == nil {
            names[issuance.guest] = try await repository.guest(issuance.guest, event: event.id)?.name
        }
        view.showPasses(stuck, names: names, timeZone: pages.zone(of: event), now: clock.now())
        return pages.html("guests", view, signed: signed, status: status)
    }

    /// A value of the query as a browser's GET form sends it: `+` is a space, then percent-decoding.
    static func queryValue(_ request: Request, _ name: String) -> String? {
        QueryString.value(name, in: request.uri.query ?? "")
    }

    /// "2 guests imported.": the counts of an import that just ended.
    static func imported(_ count: Int, updated: Int = 0, unchanged: Int = 0) -> String {
        var parts = ["\(TimeText.counted(count, "guest")) imported"]
        if updated > 0 { parts.append("\(updated) updated") }
        if unchanged > 0 { parts.append("\(unchanged) unchanged") }
        return parts.joined(separator: ", ") + ". Kiosks learn the changes with their next roster update."
    }

    /// The notices a redirect may ask for (nothing else is shown).
    static func notices(_ key: String) -> String? {
        switch key {
        case "added": "Guest added. Kiosks learn it with their next roster update."
        case "cancelled":
            "Registration cancelled. Kiosks will refuse the pass after their next roster update. "
                + "A mistake? Restore it below."
        case "edited": "Guest saved. Kiosks learn the change with their next roster update."
        case "pass-resent": "The pass is on its way again."
        case "no-address": "Not sent: the guest has no e-mail address (or is cancelled)."
        case "checked-in": "Checked in from this page. Kiosks learn it with their next roster update."
        case "check-in-undone": "Check-in undone. Kiosks learn it with their next roster update."
        case "already-checked-in": "Already checked in: the earlier check-in stands."
        case "reinstated": "Registration restored. Kiosks admit the pass again after their next roster update."
        case "imported": "Guests imported."
        case "revoked": "Device revoked: its token no longer works. What it sent before stays."
        case "gate": "Gate saved: the kiosk serves it from its next sync."
        case "list-made": "Check-in list made. Give it to a kiosk on the devices page."
        case "alerts-on": "Offline alerts saved."
        case "alerts-off": "Offline alerts are off."
        case "retried": "The pass is on its way again: the step that failed runs now."
        default: nil
        }
    }

    /// The walk-in and edit forms' fields, as typed.
    struct GuestForm: Decodable {
        var csrf: String?
        var name: String?
        var email: String?
        var phone: String?
        var partySize: String?
        var ticketType: String?
        var checkInNote: String?
        var arrivalAlert: String?

        /// What was typed, to show again beside a refusal.
        var typed: [String: String] {
            [
                "name": name ?? "", "email": email ?? "", "phone": phone ?? "", "partySize": partySize ?? "",
                "ticketType": ticketType ?? "", "checkInNote": checkInNote ?? "", "arrivalAlert": arrivalAlert ?? "",
            ]
        }

        /// The guest's values: blank fields left out, the party size a number (else `Failure.invalid`).
        func input() throws -> GuestInput {
            func blank(_ text: String?) -> String? {
                let trimmed = text?.trimmingCharacters(in: .whitespaces) ?? ""
                return trimmed.isEmpty ? nil : trimmed
            }
            var size: Int?
            if let text = blank(partySize) {
                guard let number = Int(text) else {
                    throw CheckinAdmin.Failure.invalid("party size '\(text)' is not a number")
                }
                size = number
            }
            return GuestInput(
                name: name ?? "", email: blank(email), phone: blank(phone), partySize: size,
                ticketType: blank(ticketType), checkInNote: blank(checkInNote), arrivalAlert: blank(arrivalAlert))
        }
    }

    @Sendable func addGuest(_ request: Request, context: EventPageContext) async throws -> Response {
        let form = try await Self.form(GuestForm.self, request, context)
        if let refusal = try await refusedUnlessCSRF(request, context, csrf: form.csrf) { return refusal }
        let (signed, event) = (context.signed, context.event)
        let typed = form.typed
        do {
            let guest = try await admin(signed).addGuest(try form.input(), event: event.id)
            return Self.redirect("/events/\(event.id.rawValue)/guests?q=\(guest.id.text)&notice=added")
        } catch let failure as CheckinAdmin.Failure {
            return try await guestsPage(
                signed, event, query: "", notice: nil, problem: ("Not added: \(failure)", .walkIn), walkIn: typed,
                status: .unprocessableContent)
        }
    }

    struct PageScanForm: Decodable {
        var csrf: String?
        var nonce: String?
    }

    /// `POST /events/{id}/guests/{guest}/check-in`: a check-in from "organizer page" (a guest at the desk, a
    /// door whose kiosk is down); the same rules as a kiosk's scan.
    @Sendable func checkInGuest(_ request: Request, context: EventPageContext) async throws -> Response {
        try await pageScan(request, context, undo: false)
    }

    /// `POST /events/{id}/guests/{guest}/undo-check-in`: undoes the guest's check-in, wherever it was made.
    @Sendable func undoCheckIn(_ request: Request, context: EventPageContext) async throws -> Response {
        try await pageScan(request, context, undo: true)
    }

    func pageScan(_ request: Request, _ context: EventPageContext, undo: Bool) async throws -> Response {
        let form = try await Self.form(PageScanForm.self, request, context)
        if let refusal = try await refusedUnlessCSRF(request, context, csrf: form.csrf) { return refusal }
        let (signed, event) = (context.signed, context.event)
        let code = context.parameters.get("guestId") ?? ""
        let list = "/events/\(event.id.rawValue)/guests?q=\(code)"
        do {
            let admin = admin(signed)
            let outcome =
                undo
                ? try await admin.undoCheckInFromPage(code, event: event.id, nonce: form.nonce ?? "")
                : try await admin.checkInFromPage(code, event: event.id, nonce: form.nonce ?? "")
            switch outcome.kind {
            case .applied: return Self.redirect(list + (undo ? "&notice=check-in-undone" : "&notice=checked-in"))
            case .superseded: return Self.redirect(list + "&notice=already-checked-in")
            case .recorded, .rejected:
                let why =
                    switch outcome.reason {
                    case "cancelled": "the registration is cancelled"
                    case "event_over": "the event is over"
                    case "not_checked_in": "the guest is not checked in"
                    default: outcome.reason ?? "refused"
                    }
                return try await guestsPage(
                    signed, event, query: code, notice: nil,
                    problem: ((undo ? "Not undone: " : "Not checked in: ") + why + ".", .list),
                    status: .unprocessableContent)
            }
        } catch CheckinAdmin.Failure.notFound {
            return try await notFound(signed, request)
        } catch let failure as CheckinAdmin.Failure {
            return try await guestsPage(
                signed, event, query: code, notice: nil, problem: ("\(failure)", .list), status: .unprocessableContent)
        }
    }

    /// `GET /events/{id}/guests/{guest}/edit`: the guest's fields in a form.
    @Sendable func editGuestPage(_ request: Request, context: EventPageContext) async throws -> Response {
        let (signed, event) = (context.signed, context.event)
        guard let id = GuestID(text: context.parameters.get("guestId") ?? ""),
            let guest = try await repository.guest(id, event: event.id)
        else { return try await notFound(signed, request) }
        let notice = Self.queryValue(request, "notice").flatMap(Self.notices)
        return try await editPage(signed, event, guest, typed: nil, problem: nil, notice: notice)
    }

    /// The guest's latest pass that was made (signed), if any.
    func latestPass(_ guest: Guest) async throws -> PassIssuance? {
        try await repository.issuances(guest: guest.id, event: guest.event).filter { $0.pass != nil }
            .max { $0.createdAt < $1.createdAt }
    }

    /// `GET /events/{id}/guests/{guest}/pass.png`: the image of the guest's latest pass, to download.
    @Sendable func passImage(_ request: Request, context: EventPageContext) async throws -> Response {
        let (signed, event) = (context.signed, context.event)
        guard let id = GuestID(text: context.parameters.get("guestId") ?? ""),
            let guest = try await repository.guest(id, event: event.id),
            let image = try await latestPass(guest)?.image
        else { return try await notFound(signed, request) }
        var headers = WebPages.headers(type: "image/png")
        headers[.contentDisposition] = "attachment; filename=\"pass-\(guest.id.displayCode).png\""
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: image)))
    }

    /// `POST /events/{id}/guests/{guest}/resend-pass`: the pass again, by e-mail.
    @Sendable func resendPass(_ request: Request, context: EventPageContext) async throws -> Response {
        let form = try await Self.form(CSRFForm.self, request, context)
        if let refusal = try await refusedUnlessCSRF(request, context, csrf: form.csrf) { return refusal }
        let (signed, event) = (context.signed, context.event)
        let code = context.parameters.get("guestId") ?? ""
        do {
            let started = try await admin(signed).resendPass(code, event: event.id)
            return Self.redirect(
                "/events/\(event.id.rawValue)/guests/\(code)/edit?notice=\(started ? "pass-resent" : "no-address")")
        } catch is CheckinAdmin.Failure {
            return try await notFound(signed, request)
        }
    }

    func editPage(
        _ signed: OrganizerSessions.Signed, _ event: Event, _ guest: Guest, typed: [String: String]?, problem: String?,
        notice: String? = nil
    ) async throws -> Response {
        let values =
            typed ?? [
                "name": guest.name, "email": guest.email ?? "", "phone": guest.phone ?? "",
                "partySize": String(guest.partySize), "ticketType": guest.ticketType ?? "",
                "checkInNote": guest.checkInNote ?? "", "arrivalAlert": guest.arrivalAlert ?? "",
            ]
        var page: [String: Any] = [
            "eventId": String(event.id.rawValue), "eventName": event.name, "id": guest.id.text,
            "code": guest.id.displayCode, "csrf": signed.session.csrfToken, "guest": values,
        ]
        if let problem { page["problem"] = problem }
        if let notice { page["notice"] = notice }
        if let pass = try await latestPass(guest), let token = pass.pass {
            page["passURL"] = "/p/\(token)"
            page["passImage"] = pass.image != nil
            page["passSent"] =
                pass.sentAt.map { TimeText(now: clock.now(), timeZone: pages.zone(of: event)).relative($0) }
                ?? "not sent yet (\(pass.step.rawValue))"
        }
        page["canResend"] = guest.status == .active && (guest.email != nil || guest.phone != nil)
        return pages.html("guest-edit", page, signed: signed, status: problem == nil ? .ok : .unprocessableContent)
    }

    /// `POST /events/{id}/guests/{guest}/edit`: new values, checked by the server; kiosks learn them with their
    /// next roster update.
    @Sendable func editGuest(_ request: Request, context: EventPageContext) async throws -> Response {
        let form = try await Self.form(GuestForm.self, request, context)
        if let refusal = try await refusedUnlessCSRF(request, context, csrf: form.csrf) { return refusal }
        let (signed, event) = (context.signed, context.event)
        guard let id = GuestID(text: context.parameters.get("guestId") ?? ""),
            let guest = try await repository.guest(id, event: event.id)
        else { return try await notFound(signed, request) }
        let typed = form.typed
        do {
            _ = try await admin(signed).editGuest(id.text, try form.input(), event: event.id)
            return Self.redirect("/events/\(event.id.rawValue)/guests?q=\(id.text)&notice=edited")
        } catch let failure as CheckinAdmin.Failure {
            return try await editPage(signed, event, guest, typed: typed, problem: "Not saved: \(failure)")
        }
    }

    /// `GET /events/{id}/guests/{guest}/cancel`: asks first; the list's Cancel button is a link here.
    @Sendable func confirmCancelGuest(_ request: Request, context: EventPageContext) async throws -> Response {
        let (signed, event) = (context.signed, context.event)
        guard let id = GuestID(text: context.parameters.get("guestId") ?? ""),
            let guest = try await repository.guest(id, event: event.id)
        else { return try await notFound(signed, request) }
        let list = "/events/\(event.id.rawValue)/guests?q=\(guest.id.text)"
        guard guest.status == .active else { return Self.redirect(list) }
        let party = guest.partySize == 1 ? "" : " (a party of \(guest.partySize))"
        return pages.html(
            "confirm",
            [
                "heading": "Cancel \(guest.name)'s registration?",
                "message": "\(guest.name)\(party), code \(guest.id.displayCode): kiosks refuse the pass after their "
                    + "next roster update. You can restore the registration from the guest list.",
                "action": "/events/\(event.id.rawValue)/guests/\(guest.id.text)/cancel",
                "csrf": signed.session.csrfToken, "button": "Cancel the registration", "back": list,
                "backLabel": "Keep it",
            ], signed: signed)
    }

    /// `POST /events/{id}/guests/{guest}/reinstate`: the undo of a cancellation.
    @Sendable func reinstateGuest(_ request: Request, context: EventPageContext) async throws -> Response {
        let form = try await Self.form(CSRFForm.self, request, context)
        if let refusal = try await refusedUnlessCSRF(request, context, csrf: form.csrf) { return refusal }
        let (signed, event) = (context.signed, context.event)
        do {
            let guest = try await admin(signed).reinstateGuest(context.parameters.get("guestId") ?? "", event: event.id)
            return Self.redirect("/events/\(event.id.rawValue)/guests?q=\(guest.id.text)&notice=reinstated")
        } catch is CheckinAdmin.Failure {
            return try await notFound(signed, request)
        }
    }

    @Sendable func cancelGuest(_ request: Request, context: EventPageContext) async throws -> Response {
        let form = try await Self.form(CSRFForm.self, request, context)
        if let refusal = try await refusedUnlessCSRF(request, context, csrf: form.csrf) { return refusal }
        let (signed, event) = (context.signed, context.event)
        let code = context.parameters.get("guestId") ?? ""
        do {
            let guest = try await admin(signed).cancelGuest(code, event: event.id)
            return Self.redirect("/events/\(event.id.rawValue)/guests?q=\(guest.id.text)&notice=cancelled")
        } catch is CheckinAdmin.Failure {
            return try await notFound(signed, request)
        }
    }

    /// `POST /events/{id}/passes/{issuance}/retry`: a failed pass runs its failed step again.
    @Sendable func retryPass(_ request: Request, context: EventPageContext) async throws -> Response {
        let form = try await Self.form(CSRFForm.self, request, context)
        if let refusal = try await refusedUnlessCSRF(request, context, csrf: form.csrf) { return refusal }
        let (signed, event) = (context.signed, context.event)
        let id = context.parameters.get("issuanceId") ?? ""
        do {
            let issuance = try await repository.retryIssuance(id, event: event.id, at: clock.now())
            try await repository.appendAudit(
                AuditEntry(
                    at: clock.now(), tenant: event.tenant, device: nil, action: "pass_retried",
                    detail:
                        "pass \(issuance.id) for guest \(issuance.guest.text), step \(issuance.step.rawValue), by organizer \(signed.organizer.email)"
                ))
            return Self.redirect("/events/\(event.id.rawValue)/guests?notice=retried")
        } catch RepositoryError.notFound {
            return try await notFound(signed, request)
        }
    }

    struct ImportForm: Decodable {
        var csrf: String?
        /// The file, its bytes as uploaded (a String would turn bytes that are not UTF-8 into U+FFFD before the
        /// reader could refuse them): an upload without one is not this form.
        var csv: Data
    }

    /// `POST /events/{id}/guests/import`: a CSV upload, read only for a signed-in organizer (a body that is not
    /// a form with a file answers 400), previewed: how many guests it adds, updates and leaves as they are,
    /// nothing written yet; the preview's form imports it.
    @Sendable func previewImport(_ request: Request, context: EventPageContext) async throws -> Response {
        let body = try await request.body.collect(upTo: context.maxUploadSize)
        guard let type = request.headers[.contentType], let boundary = Self.boundary(type),
            let form = try? FormDataDecoder().decode(ImportForm.self, from: body, boundary: boundary)
        else {
            throw HTTPError(.badRequest, message: "The upload could not be read: choose the CSV file again and import.")
        }
        if let refusal = try await refusedUnlessCSRF(request, context, csrf: form.csrf) { return refusal }
        let (signed, event) = (context.signed, context.event)
        let bytes = [UInt8](form.csv)
        do {
            let plan = try await admin(signed).previewImport(csv: bytes, event: event.id)
            let view = ImportPreviewView(
                plan: plan, event: event, file: Base64URL.encode(bytes), csrf: signed.session.csrfToken)
            return pages.html("import-preview", view, signed: signed)
        } catch let failure as CheckinAdmin.Failure {
            return try await importRefused(failure, signed, event)
        }
    }

    struct ConfirmImportForm: Decodable {
        var csrf: String?
        /// The previewed file's bytes, unpadded base64url.
        var file: String
    }

    /// `POST /events/{id}/guests/import/confirm`: imports the previewed file (planned again: the guest list may
    /// have changed meanwhile); success redirects with the counts (a reload does not import again).
    @Sendable func importGuests(_ request: Request, context: EventPageContext) async throws -> Response {
        let form = try await Self.form(ConfirmImportForm.self, request, context)
        if let refusal = try await refusedUnlessCSRF(request, context, csrf: form.csrf) { return refusal }
        let (signed, event) = (context.signed, context.event)
        guard let bytes = Base64URL.decode(form.file) else {
            throw HTTPError(.badRequest, message: "The previewed file could not be read: choose it again and import.")
        }
        do {
            let outcome = try await admin(signed).importGuests(csv: bytes, event: event.id)
            return Self.redirect(
                "/events/\(event.id.rawValue)/guests?notice=imported&count=\(outcome.added.count)"
                    + "&updated=\(outcome.updated.count)&unchanged=\(outcome.unchanged)")
        } catch let failure as CheckinAdmin.Failure {
            return try await importRefused(failure, signed, event)
        }
    }

    /// The guest list with why nothing was imported, in the import card.
    func importRefused(_ failure: CheckinAdmin.Failure, _ signed: OrganizerSessions.Signed, _ event: Event)
        async throws -> Response
    {
        if case .badLines(let problems) = failure {
            return try await guestsPage(
                signed, event, query: "", notice: nil,
                problem: (
                    "Nothing imported: \(TimeText.counted(problems.count, "bad line")). Correct them and import the "
                        + "file again.", .csvImport
                ), lines: problems, status: .unprocessableContent)
        }
        return try await guestsPage(
            signed, event, query: "", notice: nil, problem: ("Nothing imported: \(failure)", .csvImport),
            status: .unprocessableContent)
    }

    static func boundary(_ contentType: String) -> String? {
        guard contentType.lowercased().hasPrefix("multipart/form-data"),
            let range = contentType.range(of: "boundary=")
        else { return nil }
        return String(contentType[range.upperBound...].prefix { $0 != ";" }).trimmingCharacters(
            in: CharacterSet(charactersIn: "\" "))
    }
}
