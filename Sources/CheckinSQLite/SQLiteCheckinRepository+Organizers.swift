import CheckinCore
import Foundation
import GRDB
import KioskCore
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
        }
    }
}

extension OrganizerRow {
    var organizer: Organizer {
        Organizer(
            id: id ?? 0, tenant: TenantID(UInt32(truncatingIfNeeded: tenantId)), email: email, name: name,
            passwordHash: passwordHash, createdAt: createdAt)
    }
}
