import CheckinCore
import Foundation
import GRDB
import PassFormat

extension SQLiteCheckinRepository {
    public func applyGuestWebhook(
        id webhookID: String, tenant: TenantID, event: EventID, change: GuestWebhookChange, at time: Date
    ) async throws -> GuestWebhookOutcome {
        try await writer.write { db in
            let tenantId = Int64(tenant.rawValue)
            if try Bool.fetchOne(
                db, sql: "SELECT 1 FROM webhook_receipt WHERE tenant_id = ? AND webhook_id = ?",
                arguments: [tenantId, webhookID]) ?? false
            {
                return .duplicate
            }
            guard try Self.tenantOfEvent(db, event) == tenantId else {
                throw RepositoryError.notFound("event \(event)")
            }
            let outcome = try Self.apply(db, change, tenant: tenantId, event: event, at: time)
            try db.execute(
                sql: "INSERT INTO webhook_receipt (tenant_id, webhook_id, received_at, outcome) VALUES (?, ?, ?, ?)",
                arguments: [tenantId, webhookID, time, outcome.name])
            return outcome
        }
    }

    static func guestID(_ db: Database, reference: String, event: EventID) throws -> GuestID? {
        try String.fetchOne(
            db, sql: "SELECT id FROM guest WHERE event_id = ? AND external_ref = ?",
            arguments: [Int64(event.rawValue), reference]
        ).flatMap(GuestID.init(text:))
    }

    static func apply(_ db: Database, _ change: GuestWebhookChange, tenant: Int64, event: EventID, at time: Date)
        throws -> GuestWebhookOutcome
    {
        let eventId = Int64(event.rawValue)
        switch change {
        case .cancel(let reference):
            guard let id = try guestID(db, reference: reference, event: event),
                let guest = try Self.guest(db, id, event: event)
            else { return .refused("no guest with reference '\(reference)' in event \(event)") }
            if guest.status == .cancelled { return .cancelled(guest) }
            try db.execute(
                sql: "UPDATE guest SET status = 'cancelled' WHERE event_id = ? AND id = ?",
                arguments: [eventId, id.text])
            try touchGuest(db, id, event: event, at: time)
            try cancelIssuances(db, guest: id, event: event, reason: "the guest was cancelled", at: time)
            return .cancelled(try Self.guest(db, id, event: event)!)
        case .upsert(let external):
            guard let id = try guestID(db, reference: external.reference, event: event) else {
                let new = NewGuest(
                    name: external.name, email: external.email, phone: external.phone, partySize: external.partySize,
                    ticketType: external.ticketType, checkInNote: external.checkInNote,
                    arrivalAlert: external.arrivalAlert)
                var row = GuestRow(new, event: event, changeSeq: try nextChange(db), at: time)
                row.status = GuestState.active.rawValue
                try row.insert(db)
                try db.execute(
                    sql: "UPDATE guest SET external_ref = ? WHERE event_id = ? AND id = ?",
                    arguments: [external.reference, eventId, row.id])
                let guest = row.guest(checkIn: nil)
                try startIssuance(db, guest, tenant: tenant, at: time)
                return .added(guest)
            }
            let old = try Self.guest(db, id, event: event)!
            guard old.status == .active else {
                return .refused("guest '\(external.reference)' is cancelled; send a new reference to add them again")
            }
            let updated = external.applied(to: old)
            guard updated != old else { return .updated(old, reissued: false) }
            try db.execute(
                sql: """
                    UPDATE guest SET name = ?, email = ?, phone = ?, party_size = ?, access_type = ?,
                        check_in_note = ?, arrival_alert = ? WHERE event_id = ? AND id = ?
                    """,
                arguments: [
                    updated.name, updated.email, updated.phone, updated.partySize, updated.ticketType,
                    updated.checkInNote, updated.arrivalAlert, eventId, id.text,
                ])
            try touchGuest(db, id, event: event, at: time)
            let reissue = ExternalGuest.reissues(from: old, to: updated)
            let guest = try Self.guest(db, id, event: event)!
            if reissue {
                try cancelIssuances(db, guest: id, event: event, reason: "replaced: the address changed", at: time)
                try startIssuance(db, guest, tenant: tenant, at: time)
            }
            return .updated(guest, reissued: reissue)
        }
    }

    public func addWebhookSecret(_ secret: String, tenant: TenantID, at time: Date) async throws {
        try await writer.write { db in
            guard try TenantRow.exists(db, key: Int64(tenant.rawValue)) else {
                throw RepositoryError.notFound("tenant \(tenant)")
            }
            try db.execute(
                sql: "INSERT INTO webhook_secret (tenant_id, secret, created_at) VALUES (?, ?, ?)",
                arguments: [Int64(tenant.rawValue), try self.sealSecret(secret, .webhookSecret(tenant: tenant)), time])
        }
    }

    public func webhookSecrets(tenant: TenantID) async throws -> [WebhookSecret] {
        try await writer.read { db in
            try Row.fetchAll(
                db, sql: "SELECT secret, created_at FROM webhook_secret WHERE tenant_id = ? ORDER BY id DESC",
                arguments: [Int64(tenant.rawValue)]
            ).map {
                WebhookSecret(
                    secret: try self.openSecret($0["secret"], .webhookSecret(tenant: tenant)),
                    createdAt: $0["created_at"])
            }
        }
    }
}
