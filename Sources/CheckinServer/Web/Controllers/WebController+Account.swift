import CheckinAdmin
import CheckinCore
import Foundation
import Hummingbird

extension WebController {
    /// `GET /account`: the organizer's own account, where they change their password.
    @Sendable func account(_ request: Request, context: OrganizerContext) async throws -> Response {
        let notice = Self.queryValue(request, "notice") == "password-changed" ? "Your password is changed." : nil
        return accountPage(context.signed, notice: notice, problem: nil)
    }

    func accountPage(_ signed: OrganizerSessions.Signed, notice: String?, problem: String?) -> Response {
        var values: [String: Any] = [
            "email": signed.organizer.email, "csrf": signed.session.csrfToken,
            "minimum": String(CheckinAdmin.minimumPasswordLength),
        ]
        if let notice { values["notice"] = notice }
        if let problem { values["problem"] = problem }
        return pages.html("account", values, signed: signed, status: problem == nil ? .ok : .unprocessableContent)
    }

    struct PasswordForm: Decodable {
        var csrf: String?
        var current: String?
        var password: String?
        var again: String?
    }

    /// `POST /account/password`: the current password (counted by the sign-in throttle like a sign-in: a
    /// stolen session cannot guess it), then the new one twice; the organizer's other sessions end.
    @Sendable func changePassword(_ request: Request, context: OrganizerContext) async throws -> Response {
        let form = try await Self.form(PasswordForm.self, request, context)
        let signed = context.signed
        guard let sent = form.csrf, OrganizerSessions.same(sent, signed.session.csrfToken) else {
            return try await refused(request, organizer: signed)
        }
        let client = ClientAddress.of(request, peer: context.clientAddress, trustedProxies: limits.trustedProxies)
        let account = signed.organizer.email
        guard try await throttle.admits(account: account, client: client, now: clock.now()) else {
            return accountPage(signed, notice: nil, problem: "Too many attempts: wait 15 minutes, then try again.")
        }
        guard try await sessions.verify(signed.organizer, password: form.current ?? "") else {
            try await repository.appendAudit(
                AuditEntry(
                    at: clock.now(), tenant: signed.tenant.id, device: nil, action: "password_change_refused",
                    detail: "organizer \(account): wrong current password"))
            return accountPage(signed, notice: nil, problem: "The current password is wrong.")
        }
        guard let password = form.password, password == form.again else {
            return accountPage(signed, notice: nil, problem: "The new password and its repetition differ.")
        }
        do {
            _ = try await admin(signed).setOrganizerPassword(
                email: account, password: password, keeping: signed.session.tokenHash)
        } catch let failure as CheckinAdmin.Failure {
            return accountPage(signed, notice: nil, problem: "Not changed: \(failure)")
        }
        try await throttle.succeeded(account: account, client: client)
        return Self.redirect("/account?notice=password-changed")
    }
}
