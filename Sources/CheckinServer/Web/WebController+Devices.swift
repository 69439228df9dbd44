import CheckinAPI
import CheckinCore
import Foundation
import Hummingbird
import KioskCore

extension WebController {
    @Sendable func devices(_ request: Request, context: EventPageContext) async throws -> Response {
        let (signed, event) = (context.signed, context.event)
        let notice = Self.queryValue(request, "notice").flatMap(Self.notices)
        return try await devicesPage(signed, event, code: nil, notice: notice)
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
            problem: alertProblem, now: now, timeZone: pages.timeZone, secretMadeNow: secretMadeNow)
        let view = DevicesView(
            event: event, devices: try await repository.devices(event: event.id), csrf: signed.session.csrfToken,
            code: code, notice: notice, alerts: alerts, now: now, timeZone: pages.timeZone)
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
        let form = try await Self.form(CSRFForm.self, request, context)
        if let refusal = try await refusedUnlessCSRF(request, context, csrf: form.csrf) { return refusal }
        let (signed, event) = (context.signed, context.event)
        let answer = try await admin(signed).createEnrolmentCode(event: event.id)
        let time = TimeText(now: clock.now(), timeZone: pages.timeZone)
        let server = request.head.authority.map { "https://\($0)" } ?? "https://this-server"
        let code = DevicesView.NewCode(
            text: answer.code,
            expires: time.dayAndTime(answer.expiresAt),
            server: server, qr: try QRCodeSVG.svg(answer.code, label: "Enrolment code \(answer.code) as a QR code"))
        return try await devicesPage(signed, event, code: code, notice: nil)
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
