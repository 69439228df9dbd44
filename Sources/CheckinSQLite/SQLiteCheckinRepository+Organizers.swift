import CheckinCore
import Foundation
import GRDB
import PassFormat

extension SQLiteCheckinRepository {
    public func createOrganizer(_ organizer: NewOrganizer, at time: Date) async throws -> Organizer {
        try await writer.write { db in
            guard try TenantRow.exists(db, key: Int64(organizer.tenant.rawValue)) else {
                throw RepositoryError.notFound("tenant \(organizer.tenant)")
            }
            guard try OrganizerRow.filter(OrganizerRow.Columns.email == organizer.email).fetchCount(db) == 0 else {
                throw RepositoryError.duplicateOrganizer(organizer.email)
            }
            let row = try OrganizerRow(
                id: nil, tenantId: Int64(organizer.tenant.rawValue), email: organizer.email, name: organizer.name,
                passwordHash: organizer.passwordHash, createdAt: time
            ).insertAndFetch(db)
            return row.organizer
        }
    }

    public func setOrganizerPassword(_ organizer: Int64, passwordHash: String, keeping tokenHash: String?)
        async throws
    {
        try await writer.write { db in
            try db.execute(
                sql: "UPDATE organizer SET password_hash = ? WHERE id = ?", arguments: [passwordHash, organizer])
            guard db.changesCount == 1 else { throw RepositoryError.notFound("organizer \(organizer)") }
            try db.execute(
                sql: "DELETE FROM web_session WHERE organizer_id = ? AND token_hash IS NOT ?",
                arguments: [organizer, tokenHash])
        }
    }

    public func organizer(email: String) async throws -> Organizer? {
        try await writer.read { db in
            try OrganizerRow.filter(OrganizerRow.Columns.email == Organizer.normalizedEmail(email)).fetchOne(db)?
                .organizer
        }
    }

    public func createWebSession(_ session: WebSession) async throws {
        try await writer.write { db in
            try WebSessionRow(
                tokenHash: session.tokenHash, organizerId: session.organizer, csrfToken: session.csrfToken,
                createdAt: session.createdAt, expiresAt: session.expiresAt
            ).insert(db)
        }
    }

    public func webSession(tokenHash: String) async throws -> (WebSession, Organizer)? {
        try await writer.read { db in
            guard let session = try WebSessionRow.fetchOne(db, key: tokenHash),
                let organizer = try OrganizerRow.fetchOne(db, key: session.organizerId)
            else { return nil }
            return (
                WebSession(
                    tokenHash: session.tokenHash, organizer: session.organizerId, csrfToken: session.csrfToken,
                    createdAt: session.createdAt, expiresAt: session.expiresAt),
                organizer.organizer
            )
        }
    }

    public func deleteWebSession(tokenHash: String) async throws {
        _ = try await writer.write { db in try WebSessionRow.deleteOne(db, key: tokenHash) }
    }

    public func deleteExpiredWebSessions(before time: Date) async throws {
        try await writer.write { db in
            try db.execute(sql: "DELETE FROM web_session WHERE expires_at < ?", arguments: [time])
            try db.execute(sql: "DELETE FROM password_reset WHERE expires_at < ?", arguments: [time])
        }
    }

    public func createPasswordReset(organizer: Int64, tokenHash: String, expiresAt: Date) async throws {
        try await writer.write { db in
            try db.execute(
                sql: "INSERT INTO password_reset (token_hash, organizer_id, expires_at) VALUES (?, ?, ?)",
                arguments: [tokenHash, organizer, expiresAt])
        }
    }

    public func passwordResetOrganizer(tokenHash: String, at time: Date) async throws -> Organizer? {
        try await writer.read { db in try Self.liveResetOrganizer(db, tokenHash: tokenHash, at: time) }
    }

    public func redeemPasswordReset(tokenHash: String, passwordHash: String, at time: Date) async throws
        -> Organizer?
    {
        try await writer.write { db in
            guard let organizer = try Self.liveResetOrganizer(db, tokenHash: tokenHash, at: time) else { return nil }
            try db.execute(sql: "DELETE FROM password_reset WHERE organizer_id = ?", arguments: [organizer.id])
            try db.execute(
                sql: "UPDATE organizer SET password_hash = ? WHERE id = ?", arguments: [passwordHash, organizer.id])
            try db.execute(sql: "DELETE FROM web_session WHERE organizer_id = ?", arguments: [organizer.id])
            return organizer
        }
    }

    static func liveResetOrganizer(_ db: Database, tokenHash: String, at time: Date) throws -> Organizer? {
        try OrganizerRow.fetchOne(
            db,
            sql: """
                SELECT organizer.* FROM password_reset JOIN organizer ON organizer.id = password_reset.organizer_id
                WHERE password_reset.token_hash = ? AND password_reset.expires_at > ?
                """, arguments: [tokenHash, time]
        )?.organizer
    }
}

extension OrganizerRow {
    var organizer: Organizer {
        Organizer(
            id: id ?? 0, tenant: TenantID(UInt32(truncatingIfNeeded: tenantId)), email: email, name: name,
            passwordHash: passwordHash, createdAt: createdAt)
    }
}
