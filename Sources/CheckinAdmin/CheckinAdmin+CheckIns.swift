import CheckinCore
import Foundation
import PassFormat

extension CheckinAdmin {
    /// The organizer's page as a door: the device id of its scans (no kiosk has it; no token names it).
    public static let pageDevice = "organizer-page"
    public static let pageDoor = "Organizer page"

    /// Checks a guest in from the organizer's page: a scan from "organizer page", decided by the same rules as a
    /// kiosk's (a cancelled guest is refused, an earlier check-in stands), delivered to kiosks by their next
    /// delta. `nonce` is the form's own: a form sent twice is applied once.
    public func checkInFromPage(_ code: String, event: EventID, nonce: String) async throws -> ScanOutcome {
        let (known, guest) = try await pageGuest(code, event)
        let now = clock.now()
        let scan = Scan(
            key: try Self.pageKey(nonce, guest: guest.id, sequence: 1), guest: guest.id, kind: .checkIn,
            deviceTime: now, clockOffsetMs: 0, arrived: guest.partySize, door: Self.pageDoor,
            source: "organizer page")
        let outcome = try await repository.apply(scan, event: event, device: Self.device(known), receivedAt: now)
        try await audit(
            known.tenant, "checked_in_from_page",
            "guest \(guest.id.text) of event \(event): \(outcome.kind.rawValue)\(outcome.reason.map { " (\($0))" } ?? "")"
        )
        return outcome
    }

    /// Undoes a guest's check-in, wherever it was made, from the organizer's page: a revert of that scan; kiosks
    /// learn it with their next delta.
    public func undoCheckInFromPage(_ code: String, event: EventID, nonce: String) async throws -> ScanOutcome {
        let (known, guest) = try await pageGuest(code, event)
        // Without a check-in (or the form sent again after its undo) the revert is recorded, or its key's first
        // answer given again.
        let checkIn = try await repository.checkIns(event: event).first { $0.guest == guest.id }
        let now = clock.now()
        let scan = Scan(
            key: try Self.pageKey(nonce, guest: guest.id, sequence: 2), guest: guest.id, kind: .revert,
            deviceTime: now, clockOffsetMs: 0, arrived: checkIn?.arrived ?? 0, door: Self.pageDoor,
            source: "organizer page", reverts: checkIn?.scanKey)
        let outcome = try await repository.apply(scan, event: event, device: Self.device(known), receivedAt: now)
        try await audit(
            known.tenant, "check_in_undone_from_page",
            "guest \(guest.id.text) of event \(event), check-in \(checkIn.map { "\($0.scanKey) at \($0.door)" } ?? "none")"
                + ": \(outcome.kind.rawValue)")
        return outcome
    }

    /// Sends a guest's pass again (the first stopped if unfinished); false when they are cancelled or have no
    /// address to send it to.
    public func resendPass(_ code: String, event: EventID) async throws -> Bool {
        let (known, guest) = try await pageGuest(code, event)
        let started = try await repository.resendPass(guest.id, event: event, at: clock.now())
        if started { try await audit(known.tenant, "pass_resent", "guest \(guest.id.text) of event \(event)") }
        return started
    }

    func pageGuest(_ code: String, _ event: EventID) async throws -> (Event, Guest) {
        let known = try await existingEvent(event)
        guard let id = GuestID(text: code), let guest = try await repository.guest(id, event: event) else {
            throw Failure.notFound("guest \(code) in event \(event)")
        }
        return (known, guest)
    }

    /// The key of a page scan: the form's nonce and the guest make its epoch, so two guests' buttons of one page
    /// never share a key.
    static func pageKey(_ nonce: String, guest: GuestID, sequence: Int64) throws -> ScanKey {
        guard (16...64).contains(nonce.count), nonce.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
            throw Failure.invalid("the form's nonce is not one this server makes: reload the page and try again")
        }
        return ScanKey(deviceId: pageDevice, epoch: "page-\(nonce)-\(guest.text)", sequence: sequence)
    }

    static func device(_ event: Event) -> Device {
        Device(
            id: pageDevice, tenant: event.tenant, door: pageDoor, kioskVersion: "web", queueEpoch: "page",
            enrolledAt: event.startsAt)
    }
}
