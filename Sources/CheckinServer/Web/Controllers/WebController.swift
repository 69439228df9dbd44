import CheckinAdmin
import CheckinCore
import Foundation
import Hummingbird
import Mustache
import PassFormat

/// The organizer's pages: sign-in, their events, the sync monitor. Server-rendered HTML; JavaScript only for
/// the monitor's live updates. Every page of another tenant answers exactly like one that does not exist, and
/// is audited.
struct WebController: Sendable {
    let repository: any CheckinRepository
    let clock: any ServerClock
    let pages: WebPages
    /// The sign-in throttle, the password checks' queue, the webhooks' destinations.
    let limits: EdgeLimits
    let throttle: SignInThrottle
    let passwordChecks: PasswordCheckQueue
    /// Whether this server can send e-mail (`serve --smtp-url`): the devices page warns when alerts go to an
    /// address and it cannot.
    let mailConfigured: Bool
    /// How password-reset links are sent; nil on a server with no mail relay.
    let resetMail: PasswordResetMail?
    /// When events' personal data is purged (the events page says so).
    let retention: PersonalDataRetention
    var sessions: OrganizerSessions { OrganizerSessions(repository: repository, clock: clock) }

    init(
        repository: any CheckinRepository, clock: any ServerClock, timeZone: TimeZone = .current,
        limits: EdgeLimits = EdgeLimits(), resetMail: PasswordResetMail? = nil,
        retention: PersonalDataRetention = PersonalDataRetention()
    ) {
        self.retention = retention
        self.repository = repository
        self.mailConfigured = resetMail != nil
        self.resetMail = resetMail
        self.clock = clock
        self.limits = limits
        throttle = SignInThrottle(repository: repository, limits: limits)
        passwordChecks = PasswordCheckQueue(atOnce: limits.passwordChecksAtOnce, waiting: limits.passwordChecksWaiting)
        pages = WebPages(timeZone: timeZone)
        _ = OrganizerSessions.decoyHash  // made now, not by the first failed sign-in
    }

    func addRoutes(to router: Router<ServerContext>) {
        router.get("/") { request, _ in
            try await sessions.current(request) == nil ? Self.redirect("/sign-in") : Self.redirect("/events")
        }
        router.get("static/style.css") { _, _ in Self.asset(WebAssets.style, type: "text/css; charset=utf-8") }
        router.get("static/live.js") { _, _ in
            Self.asset(WebAssets.liveScript, type: "text/javascript; charset=utf-8")
        }
        router.get("sign-in", use: showSignIn)
        router.post("sign-in", use: submitSignIn)
        router.get("password-reset", use: showPasswordReset)
        router.post("password-reset", use: requestPasswordReset)
        router.get("password-reset/:token", use: showNewPassword)
        router.post("password-reset/:token", use: setNewPassword)
        // Every page below is an organizer's: the session is found once, before any of them runs.
        let signedIn = router.group()
            .add(middleware: OrganizerSessionMiddleware(sessions: sessions, signedOut: .signInPage))
            .group(context: OrganizerContext.self)
        signedIn.post("sign-out", use: submitSignOut)
        signedIn.get("events", use: events)
        signedIn.get("account", use: account)
        signedIn.post("account/password", use: changePassword)
        let event = signedIn.group("events/:eventId")
            .add(middleware: EventOwnerMiddleware(web: self))
            .group(context: EventPageContext.self)
        event.get(use: dashboard)
        event.get("monitor", use: monitor)
        event.get("double-entries", use: doubleEntries)
        event.get("no-shows", use: noShows)
        event.get("guests", use: guests)
        event.post("guests", use: addGuest)
        event.post("guests/import", use: previewImport)
        event.post("guests/import/confirm", use: importGuests)
        event.post("guests/:guestId/check-in", use: checkInGuest)
        event.post("guests/:guestId/undo-check-in", use: undoCheckIn)
        event.get("guests/:guestId/edit", use: editGuestPage)
        event.get("guests/:guestId/pass.png", use: passImage)
        event.post("guests/:guestId/resend-pass", use: resendPass)
        event.post("guests/:guestId/edit", use: editGuest)
        event.get("guests/:guestId/cancel", use: confirmCancelGuest)
        event.post("guests/:guestId/cancel", use: cancelGuest)
        event.post("guests/:guestId/reinstate", use: reinstateGuest)
        event.post("passes/:issuanceId/retry", use: retryPass)
        event.get("devices", use: devices)
        event.get("export/guests.csv", use: exportGuests)
        event.get("export/check-ins.csv", use: exportCheckIns)
        event.post("enrolment-codes", use: createEnrolmentCode)
        event.get("devices/:deviceId/revoke", use: confirmRevokeDevice)
        event.post("devices/:deviceId/revoke", use: revokeDevice)
        event.post("devices/:deviceId/gate", use: setDeviceGate)
        event.get("lists", use: listsPage)
        event.post("lists", use: createListFromPage)
        event.post("offline-alerts", use: setOfflineAlerts)
        // The live parts of the dashboard and the monitor: without a session, 401 (the page keeps what it shows).
        let live = router.group("events/:eventId")
            .add(middleware: OrganizerSessionMiddleware(sessions: sessions, signedOut: .unauthorized))
            .group(context: OrganizerContext.self)
            .add(middleware: EventOwnerMiddleware(web: self))
            .group(context: EventPageContext.self)
        live.get("live", use: dashboardLive)
        live.get("monitor/live", use: monitorLive)
    }

    // MARK: Sign-in

    /// An address is at most 254 characters (RFC 5321); a longer one typed is cut.
    static let maximumEmailLength = 254

    struct SignInForm: Decodable {
        var email: String?
        var password: String?
        var csrf: String?
    }

    @Sendable func showSignIn(_ request: Request, context: ServerContext) async throws -> Response {
        if try await sessions.current(request) != nil { return Self.redirect("/events") }
        let notice =
            Self.queryValue(request, "notice") == "password-reset" ? "Your new password is set: sign in with it." : nil
        return signInPage(message: nil, email: "", status: .ok, notice: notice)
    }

    private func signInPage(
        message: String?, email: String, status: HTTPResponse.Status, notice: String? = nil
    ) -> Response {
        let csrf = Secrets.randomBase32(bytes: 20)
        var values: [String: Any] = ["csrf": csrf, "email": email]
        if let message { values["message"] = message }
        if let notice { values["notice"] = notice }
        var response = pages.html("sign-in", values, status: status)
        response.setCookie(OrganizerSessions.cookie(OrganizerSessions.signInCookie, csrf, maxAge: 3600))
        return response
    }

    @Sendable func submitSignIn(_ request: Request, context: ServerContext) async throws -> Response {
        let form = try await Self.form(SignInForm.self, request, context)
        let client = ClientAddress.of(request, peer: context.clientAddress, trustedProxies: limits.trustedProxies)
        guard Self.signedOutFormIsGenuine(form.csrf, request) else {
            return try await refused(request, organizer: nil, client: client)
        }
        let email = String((form.email ?? "").prefix(Self.maximumEmailLength))
        let address = Organizer.normalizedEmail(email)
        // Counted before the password is checked: parallel guesses cannot all pass the limit.
        guard try await throttle.admits(account: address, client: client, now: clock.now()) else {
            try await auditUnauthenticated("sign_in_throttled", "e-mail \(address)", client: client)
            return signInPage(
                message:
                    "Too many sign-in attempts: wait 15 minutes, then try again (or ask the server's operator to run "
                    + "checkin-server unlock-organizer).", email: email,
                status: .tooManyRequests)
        }
        let opened: (Organizer, Cookie)?
        do {
            opened = try await passwordChecks.run {
                try await sessions.open(email: email, password: form.password ?? "")
            }
        } catch is PasswordCheckQueue.Full {
            try await auditUnauthenticated("sign_in_busy", "e-mail \(address)", client: client)
            return signInPage(
                message: "The server is busy checking other sign-ins: try again in a minute.", email: email,
                status: .tooManyRequests)
        }
        guard let (organizer, cookie) = opened else {
            try await auditUnauthenticated("sign_in_failed", "e-mail \(address)", client: client)
            // Said before the pause comes, not only once it has.
            let left = try await throttle.attemptsLeft(account: address, client: client, now: clock.now())
            let warning =
                switch left {
                case 0: " Sign-in for this address pauses here for 15 minutes now."
                case 1, 2: " \(left) \(left == 1 ? "attempt" : "attempts") left, then sign-in pauses for 15 minutes."
                default: ""
                }
            return signInPage(message: "Wrong e-mail or password." + warning, email: email, status: .unauthorized)
        }
        try await throttle.succeeded(account: address, client: client)
        // A session this browser had before (another organizer's, say) ends here.
        if let previous = request.cookies[OrganizerSessions.sessionCookie]?.value, !previous.isEmpty {
            try await repository.deleteWebSession(tokenHash: Secrets.hash(token: previous))
        }
        try await repository.appendAudit(
            AuditEntry(
                at: clock.now(), tenant: organizer.tenant, device: nil, action: "signed_in",
                detail: "organizer \(organizer.email)"))
        var response = Self.redirect("/events")
        response.setCookie(cookie)
        response.setCookie(OrganizerSessions.cookie(OrganizerSessions.signInCookie, "", maxAge: 0))
        return response
    }

    /// A form of a signed-out page (sign-in, password reset): its token must be the one the page set in the
    /// pre-sign-in cookie.
    static func signedOutFormIsGenuine(_ sent: String?, _ request: Request) -> Bool {
        guard let sent, let kept = request.cookies[OrganizerSessions.signInCookie]?.value else { return false }
        return OrganizerSessions.same(sent, kept)
    }

    struct CSRFForm: Decodable {
        var csrf: String?
    }

    @Sendable func submitSignOut(_ request: Request, context: OrganizerContext) async throws -> Response {
        let signed = context.signed
        let form = try await Self.form(CSRFForm.self, request, context)
        guard let sent = form.csrf, OrganizerSessions.same(sent, signed.session.csrfToken) else {
            return try await refused(request, organizer: signed)
        }
        var response = Self.redirect("/sign-in")
        response.setCookie(try await sessions.close(signed))
        try await repository.appendAudit(
            AuditEntry(
                at: clock.now(), tenant: signed.tenant.id, device: nil, action: "signed_out",
                detail: "organizer \(signed.organizer.email)"))
        return response
    }

    // MARK: Pages

    @Sendable func events(_ request: Request, context: OrganizerContext) async throws -> Response {
        let signed = context.signed
        var events: [[String: String]] = []
        for event in try await repository.events(tenant: signed.tenant.id) {
            let time = TimeText(now: clock.now(), timeZone: pages.zone(of: event))
            var row = [
                "id": String(event.id.rawValue), "name": event.name,
                "when": time.dayAndTime(event.startsAt) + " " + time.zone,
            ]
            if let venue = event.venue, !venue.isEmpty { row["venue"] = venue }
            // Data protection: when the guests' personal data goes (or went).
            if let purged = try await repository.personalDataPurgedAt(event: event.id) {
                row["retention"] = "Guests' personal data was purged on \(time.dayAndTime(purged)) \(time.zone)."
            } else {
                row["retention"] =
                    "Guests' personal data (names, e-mail addresses, phones, notes, passes) is purged on "
                    + "\(time.dayAndTime(retention.purgeDate(of: event))) \(time.zone), \(retention.days) days after the event ends."
            }
            events.append(row)
        }
        return pages.html("events", ["events": events], signed: signed)
    }

    @Sendable func dashboard(_ request: Request, context: EventPageContext) async throws -> Response {
        let (signed, event) = (context.signed, context.event)
        return pages.html("dashboard", try await dashboardView(event), signed: signed)
    }

    @Sendable func dashboardLive(_ request: Request, context: EventPageContext) async throws -> Response {
        let event = context.event
        return pages.fragment("dashboard-live", try await dashboardView(event))
    }

    func dashboardView(_ event: Event) async throws -> DashboardView {
        let now = clock.now()
        // The whole event: from a day before it starts (doors may open early), in bars as wide as it needs.
        let chartFrom = event.startsAt.addingTimeInterval(-24 * 3600)
        let inside = try await repository.inside(event: event.id)
        let passages = try await repository.passages(event: event.id)
        let lists = try await repository.lists(event: event.id).map { list in
            let now = inside[list.id] ?? 0
            return DashboardView.ListRow(
                id: list.id.rawValue, name: list.name, arrivals: passages[list.id]?.arrivals ?? 0,
                exits: passages[list.id]?.exits ?? 0, inside: now, capacity: list.capacity.map(String.init) ?? "–",
                full: list.capacity.map { now >= $0 } ?? false)
        }
        return DashboardView(
            event: event, counts: try await repository.counts(event: event.id),
            checkIns: try await repository.checkInTimes(event: event.id, since: chartFrom),
            recent: try await repository.arrivals(
                event: event.id, since: nil, alertedOnly: false, limit: DashboardView.recentCount),
            alerted: try await repository.arrivals(
                event: event.id, since: now.addingTimeInterval(-DashboardView.alertWindow), alertedOnly: true,
                limit: DashboardView.alertedCount),
            doubleEntries: try await repository.doubleEntries(event: event.id).count, now: now,
            timeZone: pages.zone(of: event), lists: lists
        )
    }

    /// A live part asked for without a session (it expired): 401, and the page keeps what it shows.
    static func signedOut() -> Response {
        Response(status: .unauthorized, headers: WebPages.headers(type: "text/html; charset=utf-8"))
    }

    @Sendable func monitor(_ request: Request, context: EventPageContext) async throws -> Response {
        let (signed, event) = (context.signed, context.event)
        return pages.html("monitor", try await monitorView(event), signed: signed)
    }

    @Sendable func monitorLive(_ request: Request, context: EventPageContext) async throws -> Response {
        let event = context.event
        return pages.fragment("monitor-live", try await monitorView(event))
    }

    /// The monitor's devices, with how far behind each one's roster is.
    func monitorView(_ event: Event) async throws -> MonitorView {
        let devices = try await repository.devices(event: event.id)
        let cursors = Set(devices.compactMap { $0.device.lastReport?.rosterCursor })
        let behind = try await repository.rosterChangesBehind(event: event.id, cursors: cursors)
        return MonitorView(
            event: event, devices: devices, behind: behind, now: clock.now(), timeZone: pages.zone(of: event))
    }

    /// The event named in the path if it is the organizer's; nil (audited) when it does not exist or is
    /// another tenant's.
    func event(_ context: OrganizerContext, _ request: Request) async throws -> Event? {
        let signed = context.signed
        var event: Event?
        if let raw = context.parameters.get("eventId"), let id = UInt32(raw), id > 0 {
            event = try await repository.event(EventID(id))
        }
        guard let event, event.tenant == signed.tenant.id else {
            try await repository.appendAudit(
                AuditEntry(
                    at: clock.now(), tenant: signed.tenant.id, device: nil,
                    action: event == nil ? "not_found" : "cross_tenant",
                    detail: "organizer \(signed.organizer.email): \(request.method) \(request.uri.path)"
                        + (event.map { " (event of tenant \($0.tenant))" } ?? "")))
            return nil
        }
        return event
    }

    func notFound(_ signed: OrganizerSessions.Signed) -> Response {
        pages.html("not-found", [String: String](), signed: signed, status: .notFound)
    }

    /// A guest or device named in the path that is not this event's (another tenant's, or none): the same
    /// 404, audited.
    func notFound(_ signed: OrganizerSessions.Signed, _ request: Request) async throws -> Response {
        try await repository.appendAudit(
            AuditEntry(
                at: clock.now(), tenant: signed.tenant.id, device: nil, action: "not_found",
                detail: "organizer \(signed.organizer.email): \(request.method) \(request.uri.path)"))
        return notFound(signed)
    }

    /// An audit row for a request without a credential: its text clipped, and at most
    /// `unauthenticatedAuditPerMinute` rows per client address and minute (the rest are not written).
    func auditUnauthenticated(_ action: String, _ detail: String, client: String) async throws {
        try await ThrottledAudit(repository: repository, clock: clock, limits: limits).append(
            AuditEntry(
                at: clock.now(), tenant: nil, device: nil, action: action,
                detail: AuditText.clipped(detail) + " from " + AuditText.clipped(client, to: 64)),
            key: "client:" + client)
    }

    /// A form without the right CSRF token: 403, audited (without a session: clipped and rate-limited, from
    /// `client`), nothing done.
    func refused(_ request: Request, organizer signed: OrganizerSessions.Signed?, client: String? = nil) async throws
        -> Response
    {
        guard let signed else {
            try await auditUnauthenticated(
                "csrf_refused", "\(request.method) \(request.uri.path)", client: client ?? "unknown")
            return pages.html("forbidden", [String: String](), signed: nil, status: .forbidden)
        }
        try await repository.appendAudit(
            AuditEntry(
                at: clock.now(), tenant: signed.tenant.id, device: nil, action: "csrf_refused",
                detail: "\(request.method) \(request.uri.path) by organizer \(signed.organizer.email)"))
        return pages.html("forbidden", [String: String](), signed: signed, status: .forbidden)
    }

    // MARK: Helpers

    /// A posted form; a body that is not one (bad percent-encoding, a field given twice...) answers 400.
    static func form<T: Decodable>(_ type: T.Type, _ request: Request, _ context: some RequestContext) async throws
        -> T
    {
        let body = try await request.body.collect(upTo: context.maxUploadSize)
        do {
            return try URLEncodedFormDecoder().decode(type, from: String(buffer: body))
        } catch {
            throw HTTPError(
                .badRequest, message: "This form could not be read: go back, reload the page and try again.")
        }
    }

    static func redirect(_ location: String) -> Response {
        Response(status: .seeOther, headers: [.location: location, .cacheControl: "no-store"])
    }

    static func asset(_ text: String, type: String) -> Response {
        var headers = WebPages.headers(type: type)
        headers[.cacheControl] = "public, max-age=300"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }
}
