import CheckinCore
import EntryRules
import Foundation
import PassFormat
import PostgresNIO

extension PostgresCheckinRepository {
    static let deviceColumns = """
        id, tenant_id, door, kiosk_version, queue_epoch, enrolled_at, revoked_at, last_seen_at, report_door,
        report_kiosk_version, report_pending, report_oldest_pending_at, report_roster_cursor,
        report_roster_fetched_at, report_camera, report_clock_offset_ms, report_device_time, report_lan_peers,
        list_id, direction
        """

    static func device(_ row: PostgresRandomAccessRow) throws -> Device {
        var report: DeviceReport?
        if let door = try row["report_door"].decode(String?.self),
            let version = try row["report_kiosk_version"].decode(String?.self),
            let camera = try row["report_camera"].decode(String?.self),
            let deviceTime = try row["report_device_time"].decode(Date?.self)
        {
            report = DeviceReport(
                door: door, kioskVersion: version, pending: Int(try row["report_pending"].decode(Int64?.self) ?? 0),
                oldestPendingAt: try row["report_oldest_pending_at"].decode(Date?.self),
                rosterCursor: try row["report_roster_cursor"].decode(String?.self),
                rosterFetchedAt: try row["report_roster_fetched_at"].decode(Date?.self), camera: camera,
                clockOffsetMs: try row["report_clock_offset_ms"].decode(Int64?.self), deviceTime: deviceTime,
                lanPeers: try row["report_lan_peers"].decode([String]?.self))
        }
        return Device(
            id: try row["id"].decode(String.self), tenant: TenantID(UInt32(try row["tenant_id"].decode(Int64.self))),
            door: try row["door"].decode(String.self), kioskVersion: try row["kiosk_version"].decode(String.self),
            queueEpoch: try row["queue_epoch"].decode(String.self),
            enrolledAt: try row["enrolled_at"].decode(Date.self),
            revokedAt: try row["revoked_at"].decode(Date?.self), lastReport: report,
            lastSeenAt: try row["last_seen_at"].decode(Date?.self),
            gate: Gate(
                list: try row["list_id"].decode(Int64?.self).map { ListID(UInt32($0)) },
                direction: Direction(rawValue: try row["direction"].decode(String.self)) ?? .entry))
    }

    public func createEnrolmentCode(_ code: EnrolmentCode) async throws {
        try await transaction { connection in
            let events = try await connection.query(
                "SELECT tenant_id FROM event WHERE id = \(Int64(code.event.rawValue))", logger: logger
            ).collect()
            guard let tenantId = try events.first?.makeRandomAccess()["tenant_id"].decode(Int64.self),
                tenantId == Int64(code.tenant.rawValue)
            else { throw RepositoryError.notFound("event \(code.event)") }
            if let replaced = code.replacesDevice {
                let devices = try await connection.query(
                    "SELECT 1 AS one FROM device WHERE id = \(replaced) AND tenant_id = \(tenantId)", logger: logger
                ).collect()
                guard !devices.isEmpty else { throw RepositoryError.notFound("device \(replaced)") }
            }
            try await connection.query(
                """
                INSERT INTO enrolment_code
                    (code_hash, tenant_id, event_id, replaces_device, created_at, expires_at, created_by, list_id,
                    direction)
                VALUES (\(code.codeHash), \(tenantId), \(Int64(code.event.rawValue)), \(code.replacesDevice),
                    \(code.createdAt), \(code.expiresAt), \(code.createdBy), \(code.gate.list.map { Int64($0.rawValue) }),
                    \(code.gate.direction.rawValue))
                """, logger: logger)
        }
    }

    public func redeemEnrolment(_ enrolling: Enrolling, at time: Date) async throws -> Device {
        try await transaction { connection in
            // FOR UPDATE: two kiosks redeeming one code at once; the second sees it used.
            let codes = try await connection.query(
                """
                SELECT tenant_id, replaces_device, expires_at, used_at, device_id, redeem_nonce_hash, list_id,
                    direction
                FROM enrolment_code WHERE code_hash = \(enrolling.codeHash) FOR UPDATE
                """, logger: logger
            ).collect()
            guard let code = codes.first?.makeRandomAccess() else {
                throw RepositoryError.notFound("enrolment code")
            }
            if try code["expires_at"].decode(Date.self) <= time { throw RepositoryError.codeExpired }
            if try code["used_at"].decode(Date?.self) != nil {
                // The same kiosk asking again (its first answer was lost): the same device, a new token.
                guard let nonce = enrolling.nonceHash, try nonce == code["redeem_nonce_hash"].decode(String?.self),
                    let id = try code["device_id"].decode(String?.self)
                else { throw RepositoryError.codeUsed }
                let renewed = try await connection.query(
                    """
                    UPDATE device SET token_hash = \(enrolling.tokenHash), door = \(enrolling.door),
                        kiosk_version = \(enrolling.kioskVersion)
                    WHERE id = \(id) AND revoked_at IS NULL
                    RETURNING \(unescaped: Self.deviceColumns)
                    """, logger: logger
                ).collect()
                guard let row = renewed.first else { throw RepositoryError.codeUsed }
                return try Self.device(row.makeRandomAccess())
            }
            let tenantId = try code["tenant_id"].decode(Int64.self)
            let listId = try code["list_id"].decode(Int64?.self)
            let direction = try code["direction"].decode(String.self)
            var deviceId = enrolling.newDeviceId
            var replacesDevice = try code["replaces_device"].decode(String?.self)
            if replacesDevice == nil, let hash = enrolling.replacesTokenHash {
                // The kiosk enrolling again with its current token: that device, if it is the code's tenant's
                // and not revoked.
                replacesDevice = try await connection.query(
                    """
                    SELECT id FROM device
                    WHERE token_hash = \(hash) AND tenant_id = \(tenantId) AND revoked_at IS NULL
                    """, logger: logger
                ).collect().first?.makeRandomAccess()["id"].decode(String.self)
            }
            let replaced = try await connection.query(
                """
                UPDATE device SET token_hash = \(enrolling.tokenHash), queue_epoch = \(enrolling.queueEpoch),
                    door = \(enrolling.door), kiosk_version = \(enrolling.kioskVersion), revoked_at = NULL,
                    enrolled_at = \(time), list_id = \(listId), direction = \(direction)
                WHERE id = \(replacesDevice) RETURNING id
                """, logger: logger
            ).collect()
            if let row = replaced.first {
                deviceId = try row.makeRandomAccess()["id"].decode(String.self)
            } else {
                try await connection.query(
                    """
                    INSERT INTO device (id, tenant_id, door, kiosk_version, token_hash, queue_epoch, enrolled_at,
                        list_id, direction)
                    VALUES (\(deviceId), \(tenantId), \(enrolling.door), \(enrolling.kioskVersion),
                        \(enrolling.tokenHash), \(enrolling.queueEpoch), \(time), \(listId), \(direction))
                    """, logger: logger)
            }
            try await connection.query(
                """
                UPDATE enrolment_code SET used_at = \(time), device_id = \(deviceId),
                    redeem_nonce_hash = \(enrolling.nonceHash)
                WHERE code_hash = \(enrolling.codeHash)
                """, logger: logger)
            let rows = try await connection.query(
                "SELECT \(unescaped: Self.deviceColumns) FROM device WHERE id = \(deviceId)", logger: logger
            ).collect()
            return try Self.device(rows[0].makeRandomAccess())
        }
    }

    public func device(tokenHash: String) async throws -> Device? {
        try await rows("SELECT \(unescaped: Self.deviceColumns) FROM device WHERE token_hash = \(tokenHash)")
            .first.map(Self.device)
    }

    public func device(id: String) async throws -> Device? {
        try await rows("SELECT \(unescaped: Self.deviceColumns) FROM device WHERE id = \(id)").first.map(Self.device)
    }

    public func devices(tenant: TenantID) async throws -> [Device] {
        try await rows(
            "SELECT \(unescaped: Self.deviceColumns) FROM device WHERE tenant_id = \(Int64(tenant.rawValue)) ORDER BY id"
        ).map(Self.device)
    }

    public func allDevices() async throws -> [Device] {
        try await rows("SELECT \(unescaped: Self.deviceColumns) FROM device ORDER BY id").map(Self.device)
    }

    public func devices(event: EventID) async throws -> [EventDevice] {
        let event = Int64(event.rawValue)
        return try await rows(
            """
            SELECT \(unescaped: Self.deviceColumns),
                (SELECT c.created_by FROM enrolment_code AS c WHERE c.device_id = device.id AND c.event_id = \(event)
                 ORDER BY c.used_at DESC NULLS LAST LIMIT 1) AS enrolled_by
            FROM device
            WHERE tenant_id = (SELECT tenant_id FROM event WHERE id = \(event))
                AND \(event) = (SELECT c.event_id FROM enrolment_code AS c WHERE c.device_id = device.id
                                ORDER BY c.used_at DESC NULLS LAST LIMIT 1)
            ORDER BY door, id
            """
        ).map { row in
            EventDevice(
                device: try Self.device(row), enrolledBy: try row["enrolled_by"].decode(String?.self) ?? "admin")
        }
    }

    public func revokeDevice(_ id: String, tenant: TenantID, at time: Date) async throws {
        let updated = try await rows(
            """
            UPDATE device SET revoked_at = \(time) WHERE id = \(id) AND tenant_id = \(Int64(tenant.rawValue))
            RETURNING id
            """)
        guard !updated.isEmpty else { throw RepositoryError.notFound("device \(id)") }
    }

    public func recordHeartbeat(_ report: DeviceReport, device id: String, at time: Date) async throws {
        let updated = try await rows(
            """
            UPDATE device SET last_seen_at = \(time), report_door = \(report.door),
                report_kiosk_version = \(report.kioskVersion), report_pending = \(Int64(report.pending)),
                report_oldest_pending_at = \(report.oldestPendingAt), report_roster_cursor = \(report.rosterCursor),
                report_roster_fetched_at = \(report.rosterFetchedAt), report_camera = \(report.camera),
                report_clock_offset_ms = \(report.clockOffsetMs), report_device_time = \(report.deviceTime),
                report_lan_peers = \(report.lanPeers), kiosk_version = \(report.kioskVersion)
            WHERE id = \(id) RETURNING id
            """)
        guard !updated.isEmpty else { throw RepositoryError.notFound("device \(id)") }
    }
}
