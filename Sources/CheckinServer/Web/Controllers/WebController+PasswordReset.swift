import CheckinAdmin
import CheckinCore
import Foundation
import Hummingbird

/// A forgotten password: the sign-in page's "Forgot your password?" sends a link to the account's address. The
/// link works once, for `PasswordResetLinks.lifetime`; using it sets a new password, ends every session of the
/// organizer and lifts a sign-in pause. The answer to a request is the same whether the address has an account
/// or not (and the e-mail is sent after it), so the page tells a stranger nothing.
extension WebController {
    struct ResetRequestForm: Decodable {
        var csrf: String?
        var email: String?
    }

    struct NewPasswordForm: Decodable {
        var csrf: String?
        var password: String?
        var again: String?
    }

    /// `GET /password-reset`: the address to send a link to.
    @Sendable func showPasswordReset(_ request: Request, context: ServerContext) async throws -> Response {
        resetPage("password-reset", [:], status: .ok)
    }

    /// `POST /password-reset`: counted per client and per address (a stranger cannot flood an inbox), then a link
    /// sent when the address has an account.
    @Sendable func requestPasswordReset(_ request: Request, context: ServerContext) async throws -> Response {
        let form = try await Self.form(ResetRequestForm.self, request, context)
        let client = ClientAddress.of(request, peer: context.clientAddress, trustedProxies: limits.trustedProxies)
        guard Self.signedOutFormIsGenuine(form.csrf, request) else {
            return try await refused(request, organizer: nil, client: client)
        }
        let email = String((form.email ?? "").prefix(Self.maximumEmailLength))
        let address = Organizer.normalizedEmail(email)
        guard let mail = resetMail else {
            return resetPage(
                "password-reset",
                [
                    "email": email,
                    "problem":
                        "This server sends no e-mail, so it cannot send a link. Ask its operator to set a new "
                        + "password for you (checkin-server set-organizer-password).",
                ], status: .serviceUnavailable)
        }
        let now = clock.now()
        guard try await throttle.admitsResetRequest(client: client, now: now) else {
            try await auditUnauthenticated("password_reset_throttled", "e-mail \(address)", client: client)
            return resetPage(
                "password-reset",
                ["email": email, "problem": "Too many requests from here: wait an hour, then try again."],
                status: .tooManyRequests)
        }
        // An address past its own limit gets the same answer as any other, and no e-mail.
        if try await throttle.admitsResetMail(account: address, now: now),
            let organizer = try await repository.organizer(email: address)
        {
            let token = Secrets.randomBase32(bytes: 32)
            try await repository.createPasswordReset(
                organizer: organizer.id, tokenHash: Secrets.hash(token: token),
                expiresAt: now.addingTimeInterval(PasswordResetMail.lifetime))
            try await repository.appendAudit(
                AuditEntry(
                    at: now, tenant: organizer.tenant, device: nil, action: "password_reset_sent",
                    detail: "organizer \(organizer.email)"))
            let email = mail.email(to: organizer, token: token)
            // Sent after the answer, by the outbox: how long the relay takes says nothing about whether the address
            // has an account.
            mail.outbox.post(email)
        }
        return resetPage("password-reset", ["sentTo": email], status: .ok)
    }

    /// `GET /password-reset/:token`: the new password's form, or why the link no longer works.
    @Sendable func showNewPassword(_ request: Request, context: ServerContext) async throws -> Response {
        let token = context.parameters.get("token") ?? ""
        guard try await repository.passwordResetOrganizer(tokenHash: Secrets.hash(token: token), at: clock.now()) != nil
        else { return deadResetLink() }
        return resetPage(
            "password-new", ["token": token, "minimum": String(CheckinAdmin.minimumPasswordLength)], status: .ok)
    }

    /// `POST /password-reset/:token`: the new password twice; the link is used up and every session ends.
    @Sendable func setNewPassword(_ request: Request, context: ServerContext) async throws -> Response {
        let form = try await Self.form(NewPasswordForm.self, request, context)
        let client = ClientAddress.of(request, peer: context.clientAddress, trustedProxies: limits.trustedProxies)
        guard Self.signedOutFormIsGenuine(form.csrf, request) else {
            return try await refused(request, organizer: nil, client: client)
        }
        let token = context.parameters.get("token") ?? ""
        let values: [String: Any] = ["token": token, "minimum": String(CheckinAdmin.minimumPasswordLength)]
        guard let password = form.password, password == form.again else {
            return resetPage(
                "password-new", values.merging(["problem": "The new password and its repetition differ."]) { $1 },
                status: .unprocessableContent)
        }
        let organizer: Organizer?
        do {
            organizer = try await CheckinAdmin(repository: repository, clock: clock)
                .resetOrganizerPassword(tokenHash: Secrets.hash(token: token), password: password)
        } catch let failure as CheckinAdmin.Failure {
            return resetPage(
                "password-new", values.merging(["problem": "Not changed: \(failure)"]) { $1 },
                status: .unprocessableContent)
        }
        guard let organizer else { return deadResetLink() }
        try await throttle.unlock(account: organizer.email)
        var response = Self.redirect("/sign-in?notice=password-reset")
        response.setCookie(OrganizerSessions.cookie(OrganizerSessions.signInCookie, "", maxAge: 0))
        return response
    }

    private func deadResetLink() -> Response {
        resetPage("password-new", ["dead": true], status: .notFound)
    }

    /// A page of the reset, with a fresh form token in the pre-sign-in cookie (as the sign-in page has).
    private func resetPage(_ template: String, _ values: [String: Any], status: HTTPResponse.Status) -> Response {
        let csrf = Secrets.randomBase32(bytes: 20)
        var response = pages.html(template, values.merging(["csrf": csrf]) { $1 }, status: status)
        response.setCookie(OrganizerSessions.cookie(OrganizerSessions.signInCookie, csrf, maxAge: 3600))
        // The link's token is in the address: no page of the reset sends it on as a referrer.
        response.headers[HTTPFields.Element.Name("Referrer-Policy")!] = "no-referrer"
        return response
    }
}
