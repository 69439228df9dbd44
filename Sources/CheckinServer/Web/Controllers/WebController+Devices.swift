import BoundedNumbers
import CheckinAdmin
import CheckinCore
import EntryRules
import Foundation
import Hummingbird
import WireAPI

extension WebController {
    @Sendable func devices(_ request: Request, context: EventPageContext) async throws -> Response {
        let (signed, event) = (context.signed, context.event)
        let notice = Self.queryValue(request, "notice").flatMap(Self.notices)
        // A code made a moment ago comes in its short-lived cookie (POST, redirect, GET: a reload makes no
        // second code); shown on this page once, then the cookie is cleared.
        var code: DevicesView.NewCode?
        if let kept = request.cookies[Self.newCodeCookie]?.value, let made = NewCodeCookie(kept),
            made.event == event.id.rawValue, made.expiresAt > clock.now()
        {
            let time = TimeText(now: clock.now(), timeZone: pages.zone(of: event))
            code = DevicesView.NewCode(
                text: made.code, expires: time.dayAndTime(made.expiresAt), server: Self.serverAddress(request),
                qr: try QRCodeSVG.svg(made.code, label: "Enrolment code \(made.code) as a QR code"))
        }
        var response = try await devicesPage(signed, event, code: code, notice: notice)
        if request.cookies[Self.newCodeCookie] != nil {
            response.setCookie(OrganizerSessions.cookie(Self.newCodeCookie, "", maxAge: 0))
        }
        return response
    }

    /// Carries a new enrolment code from the POST that made it to the page that shows it: HTTPS only, no script
    /// reads it, a minute at most.
    static let newCodeCookie = "__Host-checkin_new_code"

    /// The cookie's value: "event.expires-epoch.code".
    struct NewCodeCookie {
        var event: UInt32
        var expiresAt: Date
        var code: String

        init(event: UInt32, expiresAt: Date, code: String) {
            (self.event, self.expiresAt, self.code) = (event, expiresAt, code)
        }

        init?(_ text: String) {
            let parts = text.split(separator: ".", maxSplits: 2).map(String.init)
            // The time within 1970...9999: a cookie of 2^63 - 1 trapped where its time was shown.
            guard parts.count == 3, let event = UInt32(parts[0]),
                let expires = BoundedInteger.parse(parts[1], in: ClockDistance.seconds),
                (1...64).contains(parts[2].count), parts[2].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" })
            else { return nil }
            self.init(event: event, expiresAt: Date(timeIntervalSince1970: Double(expires)), code: parts[2])
        }

        var text: String { "\(event).\(Int64(expiresAt.timeIntervalSince1970)).\(code)" }
    }

    static func serverAddress(_ request: Request) -> String {
        request.head.authority.map { "https://\($0)" } ?? "https://this-server"
    }

    func devicesPage(
        _ signed: OrganizerSessions.Signed, _ event: Event, code: DevicesView.NewCode?, notice: String?,
        alertsTyped: (email: String, url: String)? = nil, alertProblem: String? = nil, secretMadeNow: Bool = false,
        status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        let now = clock.now()
        let alerts = OfflineAlertsView(
            settings: try await repository.offlineAlerts(event: event.id),
            deliveries: try await repository.alertDeliveries(event: event.id, limit: 10), typed: alertsTyped,
            problem: alertProblem, now: now, timeZone: pages.zone(of: event), secretMadeNow: secretMadeNow,
            mailConfigured: mailConfigured)
        let view = DevicesView(
            event: event, devices: try await repository.devices(event: event.id),
            lists: try await repository.lists(event: event.id), csrf: signed.session.csrfToken,
            code: code, notice: notice, alerts: alerts, now: now, timeZone: pages.zone(of: event))
        return pages.html("devices", view, signed: signed, status: status)
    }

    struct OfflineAlertsForm: Decodable {
        var csrf: String?
        var email: String?
        var webhookURL: String?
    }

    /// Where the event's offline alerts go; a refused value comes back on the page with the reason.
    @Sendable func setOfflineAlerts(_ request: Request, context: EventPageContext) async throws -> Response {
        let form = try await Self.form(OfflineAlertsForm.self, request, context)
        if let refusal = try await refusedUnlessCSRF(request, context, csrf: form.csrf) { return refusal }
        let (signed, event) = (context.signed, context.event)
        do {
            let before = try await repository.offlineAlerts(event: event.id).webhookSecret
            let settings = try await admin(signed).setOfflineAlerts(
                event: event, email: form.email ?? "", webhookURL: form.webhookURL ?? "",
                allowPlainHTTP: limits.allowPlainHTTPWebhooks, allowPrivate: limits.allowPrivateWebhooks)
            if let secret = settings.webhookSecret, secret != before {
                // A new secret is shown on this answer only (like an enrolment code), then only its ending.
                return try await devicesPage(
                    signed, event, code: nil, notice: Self.notices("alerts-on"), secretMadeNow: true)
            }
            let notice = settings.isOn ? "alerts-on" : "alerts-off"
            return Self.redirect("/events/\(event.id.rawValue)/devices?notice=\(notice)#offline-alerts")
        } catch let failure as CheckinAdmin.Failure {
            return try await devicesPage(
                signed, event, code: nil, notice: nil, alertsTyped: (form.email ?? "", form.webhookURL ?? ""),
                alertProblem: "Not saved: \(failure)", status: .unprocessableContent)
        }
    }

    /// A new one-time code, shown on this answer only (with its QR), never again.
    @Sendable func createEnrolmentCode(_ request: Request, context: EventPageContext) async throws -> Response {
        let form = try await Self.form(GateForm.self, request, context)
        if let refusal = try await refusedUnlessCSRF(request, context, csrf: form.csrf) { return refusal }
        let (signed, event) = (context.signed, context.event)
        let answer: EnrolmentCodeAnswer
        do {
            answer = try await admin(signed).createEnrolmentCode(
                event: event.id, list: try form.listID(), direction: try CheckinAdmin.direction(form.direction))
        } catch let failure as CheckinAdmin.Failure {
            return try await devicesPage(
                signed, event, code: nil, notice: "No code made: \(failure)", status: .unprocessableContent)
        }
        var response = Self.redirect("/events/\(event.id.rawValue)/devices#new-code")
        let made = NewCodeCookie(event: event.id.rawValue, expiresAt: answer.expiresAt, code: answer.code)
        response.setCookie(OrganizerSessions.cookie(Self.newCodeCookie, made.text, maxAge: 60))
        return response
    }

    /// The list and direction of a form (a new code's, a device's); an absent list is the event's first.
    struct GateForm: Decodable {
        var csrf: String?
        var list: String?
        var direction: String?

        func listID() throws -> ListID? {
            guard let list, !list.isEmpty else { return nil }
            guard let id = UInt32(list) else { throw CheckinAdmin.Failure.notFound("check-in list '\(list)'") }
            return ListID(id)
        }
    }

    /// `POST /events/{id}/devices/{device}/gate`: the kiosk serves another list or direction from its next sync.
    @Sendable func setDeviceGate(_ request: Request, context: EventPageContext) async throws -> Response {
        let form = try await Self.form(GateForm.self, request, context)
        if let refusal = try await refusedUnlessCSRF(request, context, csrf: form.csrf) { return refusal }
        let (signed, event) = (context.signed, context.event)
        let id = context.parameters.get("deviceId") ?? ""
        guard try await repository.devices(event: event.id).contains(where: { $0.device.id == id }) else {
            return try await notFound(signed, request)
        }
        do {
            _ = try await admin(signed).setGate(
                device: id, event: event.id, list: try form.listID(),
                direction: try CheckinAdmin.direction(form.direction))
        } catch let failure as CheckinAdmin.Failure {
            return try await devicesPage(
                signed, event, code: nil, notice: "Not moved: \(failure)", status: .unprocessableContent)
        }
        return Self.redirect("/events/\(event.id.rawValue)/devices?notice=gate#device-\(id)")
    }

    /// `GET /events/{id}/devices/{device}/revoke`: asks first, saying what revoking cannot undo.
    @Sendable func confirmRevokeDevice(_ request: Request, context: EventPageContext) async throws -> Response {
        let (signed, event) = (context.signed, context.event)
        let id = context.parameters.get("deviceId") ?? ""
        guard let health = try await repository.devices(event: event.id).first(where: { $0.device.id == id }) else {
            return try await notFound(signed, request)
        }
        let list = "/events/\(event.id.rawValue)/devices"
        guard !health.device.revoked else { return Self.redirect(list) }
        let door = health.device.lastReport?.door ?? health.device.door
        let unsent = health.device.lastReport?.pending ?? 0
        let pending = unsent > 0 ? " It last reported \(unsent) check-ins it had not sent yet." : ""
        return pages.html(
            "confirm",
            [
                "heading": "Revoke the kiosk at \(door)?",
                "message": "Its token stops working at once: it can no longer fetch the roster or send check-ins "
                    + "until it is enrolled again with a new code. What it sent before stays.\(pending)",
                "action": "/events/\(event.id.rawValue)/devices/\(id)/revoke", "csrf": signed.session.csrfToken,
                "button": "Revoke the kiosk", "back": list, "backLabel": "Keep it",
            ], signed: signed)
    }

    /// Revokes a device of this event: its token stops working at once; what it sent stays.
    @Sendable func revokeDevice(_ request: Request, context: EventPageContext) async throws -> Response {
        let form = try await Self.form(CSRFForm.self, request, context)
        if let refusal = try await refusedUnlessCSRF(request, context, csrf: form.csrf) { return refusal }
        let (signed, event) = (context.signed, context.event)
        let id = context.parameters.get("deviceId") ?? ""
        guard try await repository.devices(event: event.id).contains(where: { $0.device.id == id }) else {
            return try await notFound(signed, request)
        }
        try await admin(signed).revokeDevice(id, tenant: signed.tenant.id)
        return Self.redirect("/events/\(event.id.rawValue)/devices?notice=revoked")
    }
}
