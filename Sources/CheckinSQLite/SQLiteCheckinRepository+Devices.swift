import CheckinCore
import Foundation
import GRDB
import PassFormat

extension SQLiteCheckinRepository {
    public func createEnrolmentCode(_ code: EnrolmentCode) async throws {
        try await writer.write { db in
            guard let event = try EventRow.fetchOne(db, key: Int64(code.event.rawValue)),
                event.tenantId == Int64(code.tenant.rawValue)
            else { throw RepositoryError.notFound("event \(code.event)") }
            if let replaced = code.replacesDevice {
                guard let device = try DeviceRow.fetchOne(db, key: replaced), device.tenantId == event.tenantId else {
                    throw RepositoryError.notFound("device \(replaced)")
                }
            }
            try EnrolmentCodeRow(
                codeHash: code.codeHash, tenantId: Int64(code.tenant.rawValue), eventId: Int64(code.event.rawValue),
                replacesDevice: code.replacesDevice, createdAt: code.createdAt, expiresAt: code.expiresAt,
                usedAt: nil, deviceId: nil, createdBy: code.createdBy,
                listId: code.gate.list.map { Int64($0.rawValue) }, direction: code.gate.direction.rawValue
            ).insert(db)
        }
    }

    /// The device a redeem renews: the one the code names, else the kiosk's own when it sent its current token
    /// (a device of the code's tenant, not revoked); nil makes a new device.
    static func replacedDevice(_ db: Database, code: EnrolmentCodeRow, _ enrolling: Enrolling) throws -> DeviceRow? {
        if let replaced = code.replacesDevice { return try DeviceRow.fetchOne(db, key: replaced) }
        guard let hash = enrolling.replacesTokenHash,
            let own = try DeviceRow.filter(Column("token_hash") == hash).fetchOne(db),
            own.tenantId == code.tenantId, own.revokedAt == nil
        else { return nil }
        return own
    }

    public func redeemEnrolment(_ enrolling: Enrolling, at time: Date) async throws -> Device {
        try await writer.write { db in
            guard var code = try EnrolmentCodeRow.fetchOne(db, key: enrolling.codeHash) else {
                throw RepositoryError.notFound("enrolment code")
            }
            if code.expiresAt <= time { throw RepositoryError.codeExpired }
            if code.usedAt != nil {
                // The same kiosk asking again (its first answer was lost): the same device, a new token.
                guard let nonce = enrolling.nonceHash, nonce == code.redeemNonceHash, let id = code.deviceId,
                    var device = try DeviceRow.fetchOne(db, key: id), device.revokedAt == nil
                else { throw RepositoryError.codeUsed }
                device.tokenHash = enrolling.tokenHash
                device.door = enrolling.door
                device.kioskVersion = enrolling.kioskVersion
                try device.update(db)
                return device.device
            }
            var device: DeviceRow
            if let existing = try Self.replacedDevice(db, code: code, enrolling) {
                device = existing
                device.tokenHash = enrolling.tokenHash
                device.queueEpoch = enrolling.queueEpoch
                device.door = enrolling.door
                device.kioskVersion = enrolling.kioskVersion
                device.revokedAt = nil
                device.enrolledAt = time
                device.listId = code.listId
                device.direction = code.direction
                try device.update(db)
            } else {
                device = DeviceRow(
                    id: enrolling.newDeviceId, tenantId: code.tenantId, door: enrolling.door,
                    kioskVersion: enrolling.kioskVersion, tokenHash: enrolling.tokenHash,
                    queueEpoch: enrolling.queueEpoch, enrolledAt: time, listId: code.listId,
                    direction: code.direction)
                try device.insert(db)
            }
            code.usedAt = time
            code.deviceId = device.id
            code.redeemNonceHash = enrolling.nonceHash
            try code.update(db)
            return device.device
        }
    }

    public func device(tokenHash: String) async throws -> Device? {
        try await writer.read { db in
            try DeviceRow.filter(DeviceRow.Columns.tokenHash == tokenHash).fetchOne(db)?.device
        }
    }

    public func device(id: String) async throws -> Device? {
        try await writer.read { db in try DeviceRow.fetchOne(db, key: id)?.device }
    }

    public func devices(tenant: TenantID) async throws -> [Device] {
        try await writer.read { db in
            try DeviceRow.filter(DeviceRow.Columns.tenantId == Int64(tenant.rawValue)).order(Column("id"))
                .fetchAll(db).map(\.device)
        }
    }

    public func allDevices() async throws -> [Device] {
        try await writer.read { db in try DeviceRow.order(Column("id")).fetchAll(db).map(\.device) }
    }

    public func devices(event: EventID) async throws -> [EventDevice] {
        try await writer.read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT d.*, (SELECT c.created_by FROM enrolment_code AS c
                                 WHERE c.device_id = d.id AND c.event_id = :event
                                 ORDER BY c.used_at DESC LIMIT 1) AS enrolled_by
                    FROM device AS d
                    WHERE d.tenant_id = (SELECT tenant_id FROM event WHERE id = :event)
                        AND :event = (SELECT c.event_id FROM enrolment_code AS c WHERE c.device_id = d.id
                                      ORDER BY c.used_at DESC LIMIT 1)
                    ORDER BY d.door, d.id
                    """, arguments: ["event": Int64(event.rawValue)])
            return try rows.map { row in
                EventDevice(
                    device: try DeviceRow(row: row).device, enrolledBy: row["enrolled_by"] ?? "admin")
            }
        }
    }

    public func revokeDevice(_ id: String, tenant: TenantID, at time: Date) async throws {
        try await writer.write { db in
            guard var device = try DeviceRow.fetchOne(db, key: id), device.tenantId == Int64(tenant.rawValue) else {
                throw RepositoryError.notFound("device \(id)")
            }
            device.revokedAt = time
            try device.update(db)
        }
    }

    public func recordHeartbeat(_ report: DeviceReport, device id: String, at time: Date) async throws {
        try await writer.write { db in
            guard var device = try DeviceRow.fetchOne(db, key: id) else {
                throw RepositoryError.notFound("device \(id)")
            }
            device.lastSeenAt = time
            device.reportDoor = report.door
            device.reportKioskVersion = report.kioskVersion
            device.reportPending = report.pending
            device.reportOldestPendingAt = report.oldestPendingAt
            device.reportRosterCursor = report.rosterCursor
            device.reportRosterFetchedAt = report.rosterFetchedAt
            device.reportCamera = report.camera
            device.reportClockOffsetMs = report.clockOffsetMs
            device.reportDeviceTime = report.deviceTime
            device.reportLanPeers = report.lanPeers
            device.kioskVersion = report.kioskVersion
            try device.update(db)
        }
    }
}
