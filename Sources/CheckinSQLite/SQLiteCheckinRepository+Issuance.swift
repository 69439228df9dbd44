import CheckinCore
import Foundation
import GRDB
import PassFormat

extension SQLiteCheckinRepository {
    // MARK: Signing keys

    public func signingKey(tenant: TenantID, orAdd candidate: NewSigningKey, at time: Date) async throws
        -> SigningKey
    {
        try await writer.write { db in
            if let newest = try self.signingKeys(db, tenant: tenant).first { return newest }
            return try self.insertSigningKey(db, candidate, tenant: tenant, at: time)
        }
    }

    public func addSigningKey(_ key: NewSigningKey, tenant: TenantID, at time: Date) async throws -> SigningKey {
        try await writer.write { db in try self.insertSigningKey(db, key, tenant: tenant, at: time) }
    }

    public func signingKeys(tenant: TenantID) async throws -> [SigningKey] {
        try await writer.read { db in try self.signingKeys(db, tenant: tenant) }
    }

    /// Opened: the database holds each private key sealed.
    func signingKeys(_ db: Database, tenant: TenantID) throws -> [SigningKey] {
        try Row.fetchAll(
            db, sql: "SELECT * FROM signing_key WHERE tenant_id = ? ORDER BY key_id DESC",
            arguments: [Int64(tenant.rawValue)]
        ).map { row in
            SigningKey(
                keyID: KeyID(row["key_id"] as Int64), tenant: tenant,
                privateKeyPEM: try self.openSecret(row["private_key_pem"], .signingKey(tenant: tenant)),
                publicKey: [UInt8](row["public_key"] as Data), createdAt: row["created_at"])
        }
    }

    /// Stores the private key sealed.
    func insertSigningKey(_ db: Database, _ key: NewSigningKey, tenant: TenantID, at time: Date) throws
        -> SigningKey
    {
        guard try TenantRow.exists(db, key: Int64(tenant.rawValue)) else {
            throw RepositoryError.notFound("tenant \(tenant)")
        }
        let highest = try Int64.fetchOne(db, sql: "SELECT max(key_id) FROM signing_key") ?? 0
        let id = max(highest + 1, Int64(SigningKey.firstKeyID))
        guard id <= Int64(KeyID.max) else { throw RepositoryError.notFound("a free signing key id") }
        try db.execute(
            sql: """
                INSERT INTO signing_key (key_id, tenant_id, private_key_pem, public_key, created_at)
                VALUES (?, ?, ?, ?, ?)
                """,
            arguments: [
                id, Int64(tenant.rawValue), try self.sealSecret(key.privateKeyPEM, .signingKey(tenant: tenant)),
                Data(key.publicKey), time,
            ])
        return SigningKey(
            keyID: KeyID(id), tenant: tenant, privateKeyPEM: key.privateKeyPEM, publicKey: key.publicKey,
            createdAt: time)
    }

    // MARK: Issuances

    public func resendPass(_ id: GuestID, event: EventID, at time: Date) async throws -> Bool {
        try await writer.write { db in
            guard let tenant = try Self.tenantOfEvent(db, event), let guest = try Self.guest(db, id, event: event)
            else { throw RepositoryError.notFound("guest \(id.text)") }
            guard guest.status == .active, guest.email != nil || guest.phone != nil else { return false }
            try Self.cancelIssuances(db, guest: id, event: event, reason: "sent again", at: time)
            try Self.startIssuance(db, guest, tenant: tenant, at: time)
            return true
        }
    }

    /// Starts an issuance for a guest with an e-mail or a phone (inside the caller's transaction).
    static func startIssuance(_ db: Database, _ guest: Guest, tenant: Int64, at time: Date) throws {
        guard guest.status == .active, guest.email != nil || guest.phone != nil else { return }
        try db.execute(
            sql: """
                INSERT INTO pass_issuance (id, tenant_id, event_id, guest_id, recipient, step, attempts,
                    next_attempt_at, created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, 'sign', 0, ?, ?, ?)
                """,
            arguments: [
                PassIssuance.newID(), tenant, Int64(guest.event.rawValue), guest.id.text, guest.email, time, time,
                time,
            ])
    }

    /// Stops the guest's unfinished issuances (inside the caller's transaction).
    static func cancelIssuances(_ db: Database, guest: GuestID, event: EventID, reason: String, at time: Date)
        throws
    {
        try db.execute(
            sql: """
                UPDATE pass_issuance SET step = 'cancelled', last_error = ?, updated_at = ?
                WHERE event_id = ? AND guest_id = ? AND step IN ('sign', 'render', 'store', 'email', 'failed')
                """, arguments: [reason, time, Int64(event.rawValue), guest.text])
    }

    static func tenantOfEvent(_ db: Database, _ event: EventID) throws -> Int64? {
        try Int64.fetchOne(db, sql: "SELECT tenant_id FROM event WHERE id = ?", arguments: [Int64(event.rawValue)])
    }

    static func issuance(_ row: Row) -> PassIssuance {
        PassIssuance(
            id: row["id"], tenant: TenantID(UInt32(row["tenant_id"] as Int64)),
            event: EventID(UInt32(row["event_id"] as Int64)), guest: GuestID(text: row["guest_id"])!,
            recipient: row["recipient"], step: IssuanceStep(rawValue: row["step"]) ?? .failed,
            failedStep: (row["failed_step"] as String?).flatMap(IssuanceStep.init(rawValue:)),
            attempts: row["attempts"], nextAttemptAt: row["next_attempt_at"], lastError: row["last_error"],
            pass: row["pass"], image: (row["image"] as Data?).map { [UInt8]($0) }, storedName: row["stored_name"],
            sentAt: row["sent_at"], createdAt: row["created_at"], updatedAt: row["updated_at"])
    }

    public func runNextIssuanceStep(
        now: Date, _ perform: @Sendable (PassIssuance, Guest?) async throws -> IssuanceStepResult
    ) async throws -> PassIssuance? {
        // Claim: the first due issuance no worker of this process holds. Read in a write transaction, so after
        // the last committed step: a worker lets go of an issuance only once its result is committed, and a
        // snapshot older than that commit would run the same step again.
        let claimed: (PassIssuance, Guest?)? = try await writer.write { db in
            let due = try Row.fetchAll(
                db,
                sql: """
                    SELECT * FROM pass_issuance WHERE step IN ('sign', 'render', 'store', 'email')
                        AND next_attempt_at <= ? ORDER BY next_attempt_at, id LIMIT 64
                    """, arguments: [now])
            for row in due {
                let issuance = Self.issuance(row)
                let taken = self.runningIssuances.withLock { running in running.insert(issuance.id).inserted }
                if taken { return (issuance, try Self.guest(db, issuance.guest, event: issuance.event)) }
            }
            return nil
        }
        guard let (issuance, guest) = claimed else { return nil }
        defer { _ = runningIssuances.withLock { $0.remove(issuance.id) } }
        let result = try await perform(issuance, guest)
        return try await writer.write { db in
            // Only if nothing moved it meanwhile (a cancellation): then it stays as it is.
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT * FROM pass_issuance WHERE id = ?", arguments: [issuance.id]),
                Self.issuance(row).step == issuance.step
            else {
                return try Row.fetchOne(db, sql: "SELECT * FROM pass_issuance WHERE id = ?", arguments: [issuance.id])
                    .map(Self.issuance)
            }
            let next = IssuanceProgress.apply(result, to: issuance, now: now)
            try Self.store(db, next)
            return next
        }
    }

    static func store(_ db: Database, _ i: PassIssuance) throws {
        try db.execute(
            sql: """
                UPDATE pass_issuance SET step = ?, failed_step = ?, attempts = ?, next_attempt_at = ?,
                    last_error = ?, pass = ?, image = ?, stored_name = ?, sent_at = ?, updated_at = ?
                WHERE id = ?
                """,
            arguments: [
                i.step.rawValue, i.failedStep?.rawValue, i.attempts, i.nextAttemptAt, i.lastError, i.pass,
                i.image.map { Data($0) }, i.storedName, i.sentAt, i.updatedAt, i.id,
            ])
    }

    public func nextIssuanceDue() async throws -> Date? {
        try await writer.read { db in
            try Date.fetchOne(
                db,
                sql: "SELECT min(next_attempt_at) FROM pass_issuance WHERE step IN ('sign', 'render', 'store', 'email')"
            )
        }
    }

    public func issuances(event: EventID, problemsOnly: Bool, limit: Int) async throws -> [PassIssuance] {
        try await writer.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT * FROM pass_issuance WHERE event_id = ?
                        \(problemsOnly ? "AND (step = 'failed' OR (last_error IS NOT NULL AND step <> 'cancelled'))" : "")
                    ORDER BY created_at DESC, id LIMIT ?
                    """, arguments: [Int64(event.rawValue), limit]
            ).map(Self.issuance)
        }
    }

    public func issuances(guest: GuestID, event: EventID) async throws -> [PassIssuance] {
        try await writer.read { db in
            try Row.fetchAll(
                db, sql: "SELECT * FROM pass_issuance WHERE event_id = ? AND guest_id = ? ORDER BY created_at DESC, id",
                arguments: [Int64(event.rawValue), guest.text]
            ).map(Self.issuance)
        }
    }

    public func retryIssuance(_ id: String, event: EventID, at time: Date) async throws -> PassIssuance {
        try await writer.write { db in
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT * FROM pass_issuance WHERE id = ? AND event_id = ?",
                    arguments: [id, Int64(event.rawValue)])
            else { throw RepositoryError.notFound("issuance \(id)") }
            var issuance = Self.issuance(row)
            guard issuance.step == .failed, let failed = issuance.failedStep else {
                throw RepositoryError.notFound("failed issuance \(id)")
            }
            issuance = IssuanceProgress.retryByHand(issuance, step: failed, now: time)
            try Self.store(db, issuance)
            return issuance
        }
    }
}
