import CheckinCore
import EntryRules
import Foundation
import PassFormat

// Between the rows and the domain values.

extension TenantRow {
    var tenant: Tenant { Tenant(id: TenantID(UInt32(id!)), name: name) }
}

extension EventRow {
    var event: Event {
        Event(
            id: EventID(UInt32(id!)), tenant: TenantID(UInt32(tenantId)), name: name, venue: venue,
            opsContact: opsContact, startsAt: startsAt, endsAt: endsAt, graceMinutes: graceMinutes,
            minimumKioskVersion: minimumKioskVersion.flatMap(KioskVersion.init), timeZone: timeZone)
    }
}

extension GuestRow {
    init(_ guest: NewGuest, event: EventID, changeSeq: Int64, at time: Date) {
        self.init(
            eventId: Int64(event.rawValue), id: guest.id.text, name: guest.name, email: guest.email,
            phone: guest.phone, partySize: guest.partySize, accessType: guest.ticketType,
            checkInNote: guest.checkInNote, arrivalAlert: guest.arrivalAlert,
            status: guest.status.rawValue, version: 1, changeSeq: changeSeq, updatedAt: time)
    }

    func guest(checkIn: CheckInRow?) -> Guest {
        Guest(
            id: GuestID(text: id)!, event: EventID(UInt32(eventId)), name: name, email: email, phone: phone,
            partySize: partySize, ticketType: accessType, checkInNote: checkInNote, arrivalAlert: arrivalAlert,
            status: GuestState(rawValue: status) ?? .active, version: version,
            checkIn: checkIn.map(\.checkIn.summary))
    }
}

extension DeviceRow {
    var device: Device {
        var report: DeviceReport?
        if let reportDoor, let reportKioskVersion, let reportCamera, let reportDeviceTime {
            report = DeviceReport(
                door: reportDoor, kioskVersion: reportKioskVersion, pending: reportPending ?? 0,
                oldestPendingAt: reportOldestPendingAt, rosterCursor: reportRosterCursor,
                rosterFetchedAt: reportRosterFetchedAt, camera: reportCamera, clockOffsetMs: reportClockOffsetMs,
                deviceTime: reportDeviceTime, lanPeers: reportLanPeers)
        }
        return Device(
            id: id, tenant: TenantID(UInt32(tenantId)), door: door, kioskVersion: kioskVersion,
            queueEpoch: queueEpoch, enrolledAt: enrolledAt, revokedAt: revokedAt, lastReport: report,
            lastSeenAt: lastSeenAt,
            gate: Gate(list: listId.map { ListID(UInt32($0)) }, direction: Direction(rawValue: direction) ?? .entry))
    }
}

extension CheckInRow {
    init(_ checkIn: CheckinCore.CheckIn) {
        self.init(
            eventId: Int64(checkIn.event.rawValue), guestId: checkIn.guest.text, deviceId: checkIn.scanKey.deviceId,
            epoch: checkIn.scanKey.epoch, sequence: checkIn.scanKey.sequence, door: checkIn.door,
            deviceTime: checkIn.deviceTime, correctedTime: checkIn.correctedTime, receivedAt: checkIn.receivedAt,
            arrived: checkIn.arrived)
    }

    var checkIn: CheckinCore.CheckIn {
        CheckinCore.CheckIn(
            event: EventID(UInt32(eventId)), guest: GuestID(text: guestId)!,
            scanKey: ScanKey(deviceId: deviceId, epoch: epoch, sequence: sequence), door: door,
            deviceTime: deviceTime, correctedTime: correctedTime, receivedAt: receivedAt, arrived: arrived)
    }
}

extension CheckInEventRow {
    init(_ record: CheckInEvent, answer: String) {
        self.init(
            id: nil, eventId: Int64(record.event.rawValue), guestId: record.guest, deviceId: record.key.deviceId,
            epoch: record.key.epoch, sequence: record.key.sequence, kind: record.kind.rawValue,
            door: record.door, source: record.source, deviceTime: record.deviceTime,
            correctedTime: record.correctedTime, receivedAt: record.receivedAt, arrived: record.arrived,
            outcome: record.outcome.rawValue, reason: record.reason, revertsDeviceId: record.reverts?.deviceId,
            revertsEpoch: record.reverts?.epoch, revertsSequence: record.reverts?.sequence, answer: answer)
    }

    var checkInEvent: CheckInEvent {
        var reverts: ScanKey?
        if let revertsDeviceId, let revertsEpoch, let revertsSequence {
            reverts = ScanKey(deviceId: revertsDeviceId, epoch: revertsEpoch, sequence: revertsSequence)
        }
        return CheckInEvent(
            event: EventID(UInt32(eventId)), guest: guestId,
            key: ScanKey(deviceId: deviceId, epoch: epoch, sequence: sequence),
            kind: ScanKind(rawValue: kind) ?? .checkIn, door: door, source: source, deviceTime: deviceTime,
            correctedTime: correctedTime, receivedAt: receivedAt, arrived: arrived,
            outcome: ScanOutcome.Kind(rawValue: outcome) ?? .rejected, reason: reason, reverts: reverts,
            list: listId.map { ListID(UInt32($0)) })
    }
}

extension AuditRow {
    var entry: AuditEntry {
        AuditEntry(
            at: at, tenant: tenantId.map { TenantID(UInt32($0)) }, device: deviceId, action: action, detail: detail)
    }
}
