import CheckinCore
import Foundation
import PassFormat
import PostgresNIO

extension PostgresCheckinRepository {
    static let organizerColumns = "id, tenant_id, email, name, password_hash, created_at"

    static func organizer(_ row: PostgresRandomAccessRow, prefix: String = "") throws -> Organizer {
        Organizer(
            id: try row["\(prefix)id"].decode(Int64.self),
            tenant: TenantID(UInt32(truncatingIfNeeded: try row["\(prefix)tenant_id"].decode(Int64.self))),
            email: try row["\(prefix)email"].decode(String.self), name: try row["\(prefix)name"].decode(String.self),
            passwordHash: try row["\(prefix)password_hash"].decode(String.self),
            createdAt: try row["\(prefix)created_at"].decode(Date.self))
    }

    public func createOrganizer(_ organizer: NewOrganizer, at time: Date) async throws -> Organizer {
        let tenant = Int64(organizer.tenant.rawValue)
        guard try await !rows("SELECT 1 AS one FROM tenant WHERE id = \(tenant)").isEmpty else {
            throw RepositoryError.notFound("tenant \(organizer.tenant)")
        }
        let inserted = try await rows(
            """
            INSERT INTO organizer (tenant_id, email, name, password_hash, created_at)
            VALUES (\(tenant), \(organizer.email), \(organizer.name), \(organizer.passwordHash), \(time))
            ON CONFLICT (email) DO NOTHING
            RETURNING \(unescaped: Self.organizerColumns)
            """)
        guard let row = inserted.first else { throw RepositoryError.duplicateOrganizer(organizer.email) }
        return try Self.organizer(row)
    }

    public func organizer(email: String) async throws -> Organizer? {
        try await rows(
            """
            SELECT \(unescaped: Self.organizerColumns) FROM organizer
            WHERE email = \(Organizer.normalizedEmail(email))
            """
        ).first.map { try Self.organizer($0) }
    }

    public func createWebSession(_ session: WebSession) async throws {
        _ = try await rows(
            """
            INSERT INTO web_session (token_hash, organizer_id, csrf_token, created_at, expires_at)
            VALUES (\(session.tokenHash), \(session.organizer), \(session.csrfToken), \(session.createdAt),
                \(session.expiresAt))
            """)
    }

    public func webSession(tokenHash: String) async throws -> (WebSession, Organizer)? {
        guard
            let row = try await rows(
                """
                SELECT s.token_hash, s.organizer_id, s.csrf_token, s.created_at AS session_created_at, s.expires_at,
                    o.id AS o_id, o.tenant_id AS o_tenant_id, o.email AS o_email, o.name AS o_name,
                    o.password_hash AS o_password_hash, o.created_at AS o_created_at
                FROM web_session AS s JOIN organizer AS o ON o.id = s.organizer_id
                WHERE s.token_hash = \(tokenHash)
                """
            ).first
        else { return nil }
        let session = WebSession(
            tokenHash: try row["token_hash"].decode(String.self), organizer: try row["organizer_id"].decode(Int64.self),
            csrfToken: try row["csrf_token"].decode(String.self),
            createdAt: try row["session_created_at"].decode(Date.self),
            expiresAt: try row["expires_at"].decode(Date.self))
        return (session, try Self.organizer(row, prefix: "o_"))
    }

    public func setOrganizerPassword(_ organizer: Int64, passwordHash: String, keeping tokenHash: String?)
        async throws
    {
        try await transaction { connection in
            let changed = try await connection.query(
                "UPDATE organizer SET password_hash = \(passwordHash) WHERE id = \(organizer) RETURNING id",
                logger: logger
            ).collect()
            guard !changed.isEmpty else { throw RepositoryError.notFound("organizer \(organizer)") }
            try await connection.query(
                """
                DELETE FROM web_session
                WHERE organizer_id = \(organizer) AND token_hash IS DISTINCT FROM \(tokenHash)
                """, logger: logger)
        }
    }

    public func deleteWebSession(tokenHash: String) async throws {
        _ = try await rows("DELETE FROM web_session WHERE token_hash = \(tokenHash)")
    }

    public func createPasswordReset(organizer: Int64, tokenHash: String, expiresAt: Date) async throws {
        _ = try await rows(
            """
            INSERT INTO password_reset (token_hash, organizer_id, expires_at)
            VALUES (\(tokenHash), \(organizer), \(expiresAt))
            """)
    }

    public func passwordResetOrganizer(tokenHash: String, at time: Date) async throws -> Organizer? {
        try await rows(
            """
            SELECT \(unescaped: Self.organizerColumns) FROM organizer WHERE id = (
                SELECT organizer_id FROM password_reset WHERE token_hash = \(tokenHash) AND expires_at > \(time))
            """
        ).first.map { try Self.organizer($0) }
    }

    public func redeemPasswordReset(tokenHash: String, passwordHash: String, at time: Date) async throws
        -> Organizer?
    {
        try await transaction { connection in
            // The link's row is deleted first: of two uses at once, the second finds none.
            let used = try await connection.query(
                """
                DELETE FROM password_reset WHERE token_hash = \(tokenHash) AND expires_at > \(time)
                RETURNING organizer_id
                """, logger: logger
            ).collect()
            guard let row = used.first else { return nil }
            let organizer = try row.makeRandomAccess()["organizer_id"].decode(Int64.self)
            try await connection.query(
                "DELETE FROM password_reset WHERE organizer_id = \(organizer)", logger: logger)
            try await connection.query(
                "DELETE FROM web_session WHERE organizer_id = \(organizer)", logger: logger)
            let changed = try await connection.query(
                """
                UPDATE organizer SET password_hash = \(passwordHash) WHERE id = \(organizer)
                RETURNING \(unescaped: Self.organizerColumns)
                """, logger: logger
            ).collect()
            return try changed.first.map { try Self.organizer($0.makeRandomAccess()) }
        }
    }

    public func deleteExpiredWebSessions(before time: Date) async throws {
        _ = try await rows("DELETE FROM password_reset WHERE expires_at < \(time)")
        _ = try await rows("DELETE FROM web_session WHERE expires_at < \(time)")
    }
}
