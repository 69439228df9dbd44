import CheckinCore
import Foundation
import GRDB
import KioskCore

extension SQLiteCheckinRepository {
    public func apply(_ scan: Scan, event: EventID, device: Device, receivedAt: Date) async throws -> ScanOutcome {
        try await writer.write { db in
            // A key seen before gets the answer it got the first time.
            if let stored =
                try CheckInEventRow
                .filter(
                    CheckInEventRow.Columns.deviceId == scan.key.deviceId
                        && CheckInEventRow.Columns.epoch == scan.key.epoch
                        && CheckInEventRow.Columns.sequence == scan.key.sequence
                )
                .fetchOne(db)
            {
                return try JSONDecoder().decode(ScanOutcome.self, from: Data(stored.answer.utf8))
            }
            guard let eventRow = try EventRow.fetchOne(db, key: Int64(event.rawValue)) else {
                throw RepositoryError.notFound("event \(event)")
            }
            let guest = try Self.guest(db, scan.guest, event: event)
            let current = try CheckInRow.fetchOne(
                db, key: ["event_id": Int64(event.rawValue), "guest_id": scan.guest.text])
            let decision = CheckInRules.decide(
                scan, event: event, guest: guest, current: current?.checkIn,
                knownOffsetMs: device.knownClockOffsetMs, receivedAt: receivedAt, closesAt: eventRow.event.closesAt)
            let answer = String(decoding: try JSONEncoder().encode(decision.outcome), as: UTF8.self)
            try CheckInEventRow(decision.event, answer: answer).insert(db)
            switch decision.effect {
            case .keep:
                return decision.outcome
            case .becomeCheckIn(let checkIn) where current == nil:
                // The guest's first check-in: no other scan to set right.
                try CheckInRow(checkIn).save(db)
                try Self.touchGuest(db, scan.guest, event: event, at: receivedAt)
                return decision.outcome
            case .becomeCheckIn, .removeCheckIn:
                // An earlier scan displaces the check-in, or the check-in is undone: every scan of the guest is
                // set right (the displaced one superseded, a superseded one restored).
                let changed = try Self.reconcile(
                    db, guest: scan.guest, event: event, current: current?.checkIn, at: receivedAt)
                return changed[scan.key] ?? decision.outcome
            }
        }
    }

    public func checkIns(event: EventID) async throws -> [CheckinCore.CheckIn] {
        try await writer.read { db in
            try CheckInRow.filter(CheckInRow.Columns.eventId == Int64(event.rawValue))
                .order(Column("corrected_time"), CheckInRow.Columns.guestId).fetchAll(db).map(\.checkIn)
        }
    }

    public func checkInEvents(event: EventID) async throws -> [CheckInEvent] {
        try await writer.read { db in
            try CheckInEventRow.filter(CheckInEventRow.Columns.eventId == Int64(event.rawValue))
                .order(CheckInEventRow.Columns.id).fetchAll(db).map(\.checkInEvent)
        }
    }
}
