import CheckinCore
import Foundation
import PassFormat
import PostgresNIO

extension PostgresCheckinRepository {
    public func applyGuestWebhook(
        id webhookID: String, tenant: TenantID, event: EventID, change: GuestWebhookChange, at time: Date
    ) async throws -> GuestWebhookOutcome {
        try await transaction { connection in
            let tenantId = Int64(tenant.rawValue)
            guard try await Self.tenantOfEvent(connection, event, logger: logger) == tenantId else {
                throw RepositoryError.notFound("event \(event)")
            }
            // The receipt first: the same webhook arriving twice at once waits here for the first to commit,
            // then finds its receipt.
            let fresh = try await connection.query(
                """
                INSERT INTO webhook_receipt (tenant_id, webhook_id, received_at, outcome)
                VALUES (\(tenantId), \(webhookID), \(time), 'pending')
                ON CONFLICT (tenant_id, webhook_id) DO NOTHING RETURNING webhook_id
                """, logger: logger
            ).collect()
            guard !fresh.isEmpty else { return .duplicate }
            let outcome = try await Self.apply(
                connection, change, tenant: tenantId, event: event, at: time, logger: logger)
            try await connection.query(
                """
                UPDATE webhook_receipt SET outcome = \(outcome.name)
                WHERE tenant_id = \(tenantId) AND webhook_id = \(webhookID)
                """, logger: logger)
            return outcome
        }
    }

    static func guestID(_ connection: PostgresConnection, reference: String, event: EventID, logger: Logger)
        async throws -> GuestID?
    {
        let rows = try await connection.query(
            "SELECT id FROM guest WHERE event_id = \(Int64(event.rawValue)) AND external_ref = \(reference)",
            logger: logger
        ).collect()
        return try rows.first.flatMap { GuestID(text: try $0.makeRandomAccess()["id"].decode(String.self)) }
    }

    static func apply(
        _ connection: PostgresConnection, _ change: GuestWebhookChange, tenant: Int64, event: EventID, at time: Date,
        logger: Logger
    ) async throws -> GuestWebhookOutcome {
        let eventId = Int64(event.rawValue)
        switch change {
        case .cancel(let reference):
            guard let id = try await guestID(connection, reference: reference, event: event, logger: logger),
                let guest = try await Self.guest(connection, id, event: event, lock: true, logger: logger)
            else { return .refused("no guest with reference '\(reference)' in event \(event)") }
            if guest.status == .cancelled { return .cancelled(guest) }
            try await connection.query(
                "UPDATE guest SET status = 'cancelled' WHERE event_id = \(eventId) AND id = \(id.text)", logger: logger)
            try await touchGuest(connection, id, event: event, at: time, logger: logger)
            try await cancelIssuances(
                connection, guest: id, event: event, reason: "the guest was cancelled", at: time, logger: logger)
            return .cancelled(try await Self.guest(connection, id, event: event, logger: logger)!)
        case .upsert(let external):
            guard let id = try await guestID(connection, reference: external.reference, event: event, logger: logger)
            else {
                // A second webhook adding the same reference at once: the unique index refuses one, and
                // `transaction` runs it again, when it finds the guest.
                let id = GuestID.random()
                let inserted = try await connection.query(
                    """
                    INSERT INTO guest AS g (event_id, id, name, email, phone, party_size, access_type, check_in_note,
                        arrival_alert, status, version, change_xid, change_seq, updated_at, external_ref)
                    VALUES (\(eventId), \(id.text), \(external.name), \(external.email), \(external.phone),
                        \(Int64(external.partySize)), \(external.ticketType), \(external.checkInNote),
                        \(external.arrivalAlert), 'active', 1, pg_current_xact_id()::text::bigint,
                        nextval('change_sequence'), \(time), \(external.reference))
                    RETURNING g.event_id, g.id, g.name, g.email, g.phone, g.party_size, g.access_type,
                        g.check_in_note, g.arrival_alert, g.status, g.version, NULL::text AS check_in_door,
                        NULL::timestamptz AS check_in_at, NULL::bigint AS check_in_arrived
                    """, logger: logger
                ).collect()
                let guest = try Self.guest(inserted[0].makeRandomAccess())
                try await startIssuance(connection, guest, tenant: tenant, at: time, logger: logger)
                return .added(guest)
            }
            let old = try await Self.guest(connection, id, event: event, lock: true, logger: logger)!
            guard old.status == .active else {
                return .refused("guest '\(external.reference)' is cancelled; send a new reference to add them again")
            }
            let updated = external.applied(to: old)
            guard updated != old else { return .updated(old, reissued: false) }
            try await connection.query(
                """
                UPDATE guest SET name = \(updated.name), email = \(updated.email), phone = \(updated.phone),
                    party_size = \(Int64(updated.partySize)), access_type = \(updated.ticketType),
                    check_in_note = \(updated.checkInNote), arrival_alert = \(updated.arrivalAlert)
                WHERE event_id = \(eventId) AND id = \(id.text)
                """, logger: logger)
            try await touchGuest(connection, id, event: event, at: time, logger: logger)
            let reissue = ExternalGuest.reissues(from: old, to: updated)
            let guest = try await Self.guest(connection, id, event: event, logger: logger)!
            if reissue {
                try await cancelIssuances(
                    connection, guest: id, event: event, reason: "replaced: the address changed", at: time,
                    logger: logger)
                try await startIssuance(connection, guest, tenant: tenant, at: time, logger: logger)
            }
            return .updated(guest, reissued: reissue)
        }
    }

    public func addWebhookSecret(_ secret: String, tenant: TenantID, at time: Date) async throws {
        let sealed = try secrets.seal(secret, context: .webhookSecret(tenant: tenant))
        try await transaction { connection in
            try await Self.lockTenant(connection, tenant, logger: logger)
            try await connection.query(
                """
                INSERT INTO webhook_secret (tenant_id, secret, created_at)
                VALUES (\(Int64(tenant.rawValue)), \(sealed), \(time))
                """, logger: logger)
        }
    }

    public func webhookSecrets(tenant: TenantID) async throws -> [WebhookSecret] {
        try await rows(
            """
            SELECT secret, created_at FROM webhook_secret WHERE tenant_id = \(Int64(tenant.rawValue)) ORDER BY id DESC
            """
        ).map {
            WebhookSecret(
                secret: try secrets.open(try $0["secret"].decode(String.self), context: .webhookSecret(tenant: tenant)),
                createdAt: try $0["created_at"].decode(Date.self))
        }
    }
}
