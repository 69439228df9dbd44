import CheckinCore
import Foundation
import NIOCore
import PassFormat
import PostgresNIO

extension PostgresCheckinRepository {
    // MARK: Signing keys

    public func signingKey(tenant: TenantID, orAdd candidate: NewSigningKey, at time: Date) async throws
        -> SigningKey
    {
        try await transaction { connection in
            // The tenant's row is the lock: of several processes adding a first key, one does.
            try await Self.lockTenant(connection, tenant, logger: logger)
            if let newest = try await signingKeys(connection, tenant: tenant).first { return newest }
            return try await insertSigningKey(connection, candidate, tenant: tenant, at: time)
        }
    }

    public func addSigningKey(_ key: NewSigningKey, tenant: TenantID, at time: Date) async throws -> SigningKey {
        try await transaction { connection in
            try await Self.lockTenant(connection, tenant, logger: logger)
            return try await insertSigningKey(connection, key, tenant: tenant, at: time)
        }
    }

    public func signingKeys(tenant: TenantID) async throws -> [SigningKey] {
        try await client.withConnection { try await signingKeys($0, tenant: tenant) }
    }

    static func lockTenant(_ connection: PostgresConnection, _ tenant: TenantID, logger: Logger) async throws {
        let rows = try await connection.query(
            "SELECT id FROM tenant WHERE id = \(Int64(tenant.rawValue)) FOR UPDATE", logger: logger
        ).collect()
        guard !rows.isEmpty else { throw RepositoryError.notFound("tenant \(tenant)") }
    }

    /// Opened: the database holds each private key sealed.
    func signingKeys(_ connection: PostgresConnection, tenant: TenantID) async throws -> [SigningKey] {
        try await connection.query(
            """
            SELECT key_id, private_key_pem, public_key, created_at FROM signing_key
            WHERE tenant_id = \(Int64(tenant.rawValue)) ORDER BY key_id DESC
            """, logger: logger
        ).collect().map { row in
            let r = row.makeRandomAccess()
            return SigningKey(
                keyID: KeyID(try r["key_id"].decode(Int64.self)), tenant: tenant,
                privateKeyPEM: try secrets.open(
                    try r["private_key_pem"].decode(String.self), context: .signingKey(tenant: tenant)),
                publicKey: Array(try r["public_key"].decode(ByteBuffer.self).readableBytesView),
                createdAt: try r["created_at"].decode(Date.self))
        }
    }

    /// Stores the private key sealed.
    func insertSigningKey(_ connection: PostgresConnection, _ key: NewSigningKey, tenant: TenantID, at time: Date)
        async throws -> SigningKey
    {
        let sealed = try secrets.seal(key.privateKeyPEM, context: .signingKey(tenant: tenant))
        // Two tenants adding at once may pick the same id: the unique violation makes `transaction` retry.
        let highest = try await connection.query(
            "SELECT coalesce(max(key_id), 0) AS n FROM signing_key", logger: logger
        )
        .collect()
        let id = max(try highest[0].makeRandomAccess()["n"].decode(Int64.self) + 1, Int64(SigningKey.firstKeyID))
        guard id <= Int64(KeyID.max) else { throw RepositoryError.notFound("a free signing key id") }
        try await connection.query(
            """
            INSERT INTO signing_key (key_id, tenant_id, private_key_pem, public_key, created_at)
            VALUES (\(id), \(Int64(tenant.rawValue)), \(sealed), \(ByteBuffer(bytes: key.publicKey)), \(time))
            """, logger: logger)
        return SigningKey(
            keyID: KeyID(id), tenant: tenant, privateKeyPEM: key.privateKeyPEM, publicKey: key.publicKey,
            createdAt: time)
    }

    // MARK: Issuances

    public func resendPass(_ id: GuestID, event: EventID, at time: Date) async throws -> Bool {
        try await transaction { connection in
            guard let tenant = try await Self.tenantOfEvent(connection, event, logger: logger),
                let guest = try await Self.guest(connection, id, event: event, lock: true, logger: logger)
            else { throw RepositoryError.notFound("guest \(id.text)") }
            guard guest.status == .active, guest.email != nil || guest.phone != nil else { return false }
            try await Self.cancelIssuances(
                connection, guest: id, event: event, reason: "sent again", at: time, logger: logger)
            try await Self.startIssuance(connection, guest, tenant: tenant, at: time, logger: logger)
            return true
        }
    }

    /// Starts an issuance for a guest with an e-mail or a phone (inside the caller's transaction).
    static func startIssuance(
        _ connection: PostgresConnection, _ guest: Guest, tenant: Int64, at time: Date, logger: Logger
    ) async throws {
        guard guest.status == .active, guest.email != nil || guest.phone != nil else { return }
        try await connection.query(
            """
            INSERT INTO pass_issuance (id, tenant_id, event_id, guest_id, recipient, step, attempts, next_attempt_at,
                created_at, updated_at)
            VALUES (\(PassIssuance.newID()), \(tenant), \(Int64(guest.event.rawValue)), \(guest.id.text),
                \(guest.email), 'sign', 0, \(time), \(time), \(time))
            """, logger: logger)
    }

    /// Stops the guest's unfinished issuances (inside the caller's transaction). A worker holding one finishes
    /// its step first (the row lock), then this marks it cancelled unless that step ended it.
    static func cancelIssuances(
        _ connection: PostgresConnection, guest: GuestID, event: EventID, reason: String, at time: Date,
        logger: Logger
    ) async throws {
        try await connection.query(
            """
            UPDATE pass_issuance SET step = 'cancelled', last_error = \(reason), updated_at = \(time)
            WHERE event_id = \(Int64(event.rawValue)) AND guest_id = \(guest.text)
                AND step IN ('sign', 'render', 'store', 'email', 'failed')
            """, logger: logger)
    }

    static func tenantOfEvent(_ connection: PostgresConnection, _ event: EventID, logger: Logger) async throws
        -> Int64?
    {
        let rows = try await connection.query(
            "SELECT tenant_id FROM event WHERE id = \(Int64(event.rawValue))", logger: logger
        ).collect()
        return try rows.first?.makeRandomAccess()["tenant_id"].decode(Int64.self)
    }

    static func issuance(_ r: PostgresRandomAccessRow) throws -> PassIssuance {
        PassIssuance(
            id: try r["id"].decode(String.self), tenant: TenantID(UInt32(try r["tenant_id"].decode(Int64.self))),
            event: EventID(UInt32(try r["event_id"].decode(Int64.self))),
            guest: GuestID(text: try r["guest_id"].decode(String.self))!,
            recipient: try r["recipient"].decode(String?.self),
            step: IssuanceStep(rawValue: try r["step"].decode(String.self)) ?? .failed,
            failedStep: try r["failed_step"].decode(String?.self).flatMap(IssuanceStep.init(rawValue:)),
            attempts: Int(try r["attempts"].decode(Int64.self)),
            nextAttemptAt: try r["next_attempt_at"].decode(Date.self),
            lastError: try r["last_error"].decode(String?.self),
            pass: try r["pass"].decode(String?.self),
            image: try r["image"].decode(ByteBuffer?.self).map { Array($0.readableBytesView) },
            storedName: try r["stored_name"].decode(String?.self), sentAt: try r["sent_at"].decode(Date?.self),
            createdAt: try r["created_at"].decode(Date.self), updatedAt: try r["updated_at"].decode(Date.self))
    }

    public func runNextIssuanceStep(
        now: Date, _ perform: @Sendable (PassIssuance, Guest?) async throws -> IssuanceStepResult
    ) async throws -> PassIssuance? {
        // The row stays locked while the step runs and until its result commits: another process skips it
        // (SKIP LOCKED), and a process that dies releases it with its connection. Never retried here: a retry
        // would run the step again.
        do {
            return try await client.withConnection { connection in
                try await connection.withTransaction(logger: logger) { connection in
                    let rows = try await connection.query(
                        """
                        SELECT * FROM pass_issuance WHERE step IN ('sign', 'render', 'store', 'email')
                            AND next_attempt_at <= \(now)
                        ORDER BY next_attempt_at, id LIMIT 1 FOR UPDATE SKIP LOCKED
                        """, logger: logger
                    ).collect()
                    guard let row = rows.first else { return nil }
                    let issuance = try Self.issuance(row.makeRandomAccess())
                    let guest = try await Self.guest(connection, issuance.guest, event: issuance.event, logger: logger)
                    let result = try await perform(issuance, guest)
                    let next = IssuanceProgress.apply(result, to: issuance, now: now)
                    try await Self.store(connection, next, logger: logger)
                    return next
                }
            }
        } catch let failure as PostgresTransactionError {
            throw failure.closureError ?? failure.commitError ?? failure.beginError ?? failure
        }
    }

    static func store(_ connection: PostgresConnection, _ i: PassIssuance, logger: Logger) async throws {
        try await connection.query(
            """
            UPDATE pass_issuance SET step = \(i.step.rawValue), failed_step = \(i.failedStep?.rawValue),
                attempts = \(Int64(i.attempts)), next_attempt_at = \(i.nextAttemptAt), last_error = \(i.lastError),
                pass = \(i.pass), image = \(i.image.map { ByteBuffer(bytes: $0) }), stored_name = \(i.storedName),
                sent_at = \(i.sentAt), updated_at = \(i.updatedAt)
            WHERE id = \(i.id)
            """, logger: logger)
    }

    public func nextIssuanceDue() async throws -> Date? {
        let rows = try await rows(
            "SELECT min(next_attempt_at) AS due FROM pass_issuance WHERE step IN ('sign', 'render', 'store', 'email')")
        return try rows.first?["due"].decode(Date?.self)
    }

    public func issuances(event: EventID, problemsOnly: Bool, limit: Int) async throws -> [PassIssuance] {
        let filter = problemsOnly ? "AND (step = 'failed' OR (last_error IS NOT NULL AND step <> 'cancelled'))" : ""
        return try await rows(
            """
            SELECT * FROM pass_issuance WHERE event_id = \(Int64(event.rawValue)) \(unescaped: filter)
            ORDER BY created_at DESC, id LIMIT \(Int64(limit))
            """
        ).map(Self.issuance)
    }

    public func issuances(guest: GuestID, event: EventID) async throws -> [PassIssuance] {
        try await rows(
            """
            SELECT * FROM pass_issuance WHERE event_id = \(Int64(event.rawValue)) AND guest_id = \(guest.text)
            ORDER BY created_at DESC, id
            """
        ).map(Self.issuance)
    }

    public func retryIssuance(_ id: String, event: EventID, at time: Date) async throws -> PassIssuance {
        try await transaction { connection in
            let rows = try await connection.query(
                "SELECT * FROM pass_issuance WHERE id = \(id) AND event_id = \(Int64(event.rawValue)) FOR UPDATE",
                logger: logger
            ).collect()
            guard let row = rows.first else { throw RepositoryError.notFound("issuance \(id)") }
            var issuance = try Self.issuance(row.makeRandomAccess())
            guard issuance.step == .failed, let failed = issuance.failedStep else {
                throw RepositoryError.notFound("failed issuance \(id)")
            }
            issuance = IssuanceProgress.retryByHand(issuance, step: failed, now: time)
            try await Self.store(connection, issuance, logger: logger)
            return issuance
        }
    }
}
