import CheckinAdmin
import CheckinCore
import Foundation
import Hummingbird
import HummingbirdBcrypt
import NIOPosix

/// Organizers' sign-ins: bcrypt-checked passwords, sessions in a secure HTTP-only cookie (only the token's
/// SHA-256 is stored), and the CSRF token every form carries.
struct OrganizerSessions: Sendable {
    let repository: any CheckinRepository
    let clock: any ServerClock

    /// `__Host-`: the browser keeps it only if Secure, for this host and path /, so no sibling domain can set it.
    static let sessionCookie = "__Host-checkin_session"
    /// Before sign-in there is no session: the sign-in form's CSRF token is also in this cookie (double submit).
    static let signInCookie = "__Host-checkin_signin"

    /// A signed-in organizer, their tenant and the session's CSRF token.
    struct Signed: Sendable {
        var organizer: Organizer
        var tenant: Tenant
        var session: WebSession
    }

    /// The organizer of the request's session cookie, if it names a live session.
    func current(_ request: Request) async throws -> Signed? {
        guard let token = request.cookies[Self.sessionCookie]?.value, !token.isEmpty,
            let (session, organizer) = try await repository.webSession(tokenHash: Secrets.hash(token: token)),
            session.expiresAt > clock.now(),
            let tenant = try await repository.tenant(organizer.tenant)
        else { return nil }
        return Signed(organizer: organizer, tenant: tenant, session: session)
    }

    /// Checks e-mail and password; on success a new session and the cookie that names it. A wrong address
    /// costs the same bcrypt check as a wrong password.
    func open(email: String, password: String) async throws -> (Organizer, Cookie)? {
        let organizer = try await repository.organizer(email: email)
        let hash = organizer?.passwordHash ?? Self.decoyHash
        // About 250 ms of CPU: on NIO's blocking thread pool, not on the threads that serve every request.
        let matches = try await NIOThreadPool.singleton.runIfActive { Bcrypt.verify(password, hash: hash) }
        guard let organizer, matches else { return nil }
        let token = "ws_" + Secrets.randomBase32(bytes: 32)
        let now = clock.now()
        try await repository.deleteExpiredWebSessions(before: now)
        try await repository.createWebSession(
            WebSession(
                tokenHash: Secrets.hash(token: token), organizer: organizer.id,
                csrfToken: Secrets.randomBase32(bytes: 20), createdAt: now,
                expiresAt: now.addingTimeInterval(WebSession.lifetime)))
        return (organizer, Self.cookie(Self.sessionCookie, token, maxAge: Int(WebSession.lifetime)))
    }

    /// Whether `password` is the organizer's (bcrypt, on NIO's blocking pool).
    func verify(_ organizer: Organizer, password: String) async throws -> Bool {
        try await NIOThreadPool.singleton.runIfActive { Bcrypt.verify(password, hash: organizer.passwordHash) }
    }

    func close(_ signed: Signed) async throws -> Cookie {
        try await repository.deleteWebSession(tokenHash: signed.session.tokenHash)
        return Self.cookie(Self.sessionCookie, "", maxAge: 0)
    }

    /// Secure (HTTPS only), HTTP-only (no script reads it), SameSite=Lax (no cross-site form posts carry it).
    static func cookie(_ name: String, _ value: String, maxAge: Int) -> Cookie {
        Cookie(name: name, value: value, maxAge: maxAge, path: "/", secure: true, httpOnly: true, sameSite: .lax)
    }

    /// A valid bcrypt hash of nothing anybody types, so an unknown address takes as long as a known one.
    static let decoyHash = Bcrypt.hash(Secrets.randomBase32(bytes: 16), cost: 12)

    /// Compares two tokens in time independent of where they differ.
    static func same(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        guard x.count == y.count, !x.isEmpty else { return false }
        return zip(x, y).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
