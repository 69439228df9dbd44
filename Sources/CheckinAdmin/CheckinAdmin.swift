import CheckinCore
import EntryRules
import Foundation
import PassFormat
import WireAPI

/// The organizer's operations, shared by the `checkin-server` admin subcommands (straight on the database)
/// and the admin API. Each one is audited.
public struct CheckinAdmin: Sendable {
    public let repository: any CheckinRepository
    public let clock: any ServerClock

    /// Who acts, for the audit log and the enrolment codes: "admin" (the command line, the admin token) or an
    /// organizer's e-mail address.
    public let actor: String

    public init(
        repository: any CheckinRepository, clock: any ServerClock = SystemServerClock(), actor: String = "admin"
    ) {
        self.repository = repository
        self.clock = clock
        self.actor = actor
    }

    public enum Failure: Error, Equatable, CustomStringConvertible {
        case notFound(String)
        case invalid(String)
        /// Bad CSV lines; nothing was imported.
        case badLines([GuestCSV.Problem])

        public var description: String {
            switch self {
            case .notFound(let what): "\(what) does not exist"
            case .invalid(let message): message
            case .badLines(let problems):
                "nothing imported; fix these lines and import again:\n"
                    + problems.map { "  line \($0.line): \($0.message)" }.joined(separator: "\n")
            }
        }
    }

    public func createTenant(name: String) async throws -> Tenant {
        guard !name.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw Failure.invalid("the tenant's name is empty")
        }
        let tenant = try await repository.createTenant(name: name, at: clock.now())
        try await audit(tenant.id, "tenant_created", "tenant \(tenant.id) '\(name)'")
        return tenant
    }

    public func createEvent(_ input: EventInput, tenant: TenantID) async throws -> Event {
        guard try await repository.tenant(tenant) != nil else { throw Failure.notFound("tenant \(tenant)") }
        guard !input.name.isEmpty else { throw Failure.invalid("the event's name is empty") }
        guard input.startsAt < input.endsAt else { throw Failure.invalid("the event must start before it ends") }
        var minimum: KioskVersion?
        if let text = input.minimumKioskVersion {
            guard let version = KioskVersion(text) else {
                throw Failure.invalid("minimum kiosk version '\(text)' is not a version such as 1.4.0")
            }
            minimum = version
        }
        let event = try await repository.createEvent(
            NewEvent(
                name: input.name, venue: input.venue, opsContact: input.opsContact, startsAt: input.startsAt,
                endsAt: input.endsAt, graceMinutes: input.graceMinutes ?? 60, minimumKioskVersion: minimum,
                timeZone: try Self.eventTimeZone(input.timeZone)),
            tenant: tenant)
        try await audit(tenant, "event_created", "event \(event.id) '\(event.name)'")
        return event
    }

    /// The zone an event's times are shown in: an IANA name the system knows ("Europe/Berlin", "UTC"), or the
    /// server's own zone when none is given. An abbreviation ("CET") or an offset is refused: it does not follow
    /// the venue's daylight saving.
    static func eventTimeZone(_ name: String?) throws -> String {
        guard let name else { return TimeZone.current.identifier }
        guard name == "UTC" || TimeZone.knownTimeZoneIdentifiers.contains(name), TimeZone(identifier: name) != nil
        else {
            throw Failure.invalid(
                "time zone '\(name)' is not an IANA zone name: give the venue's, such as Europe/Berlin or America/New_York"
            )
        }
        return name
    }

    /// What an import did: the guests added and updated, and the lines that changed nothing.
    public struct ImportOutcome: Sendable {
        public var added: [Guest]
        public var updated: [Guest]
        public var unchanged: Int
    }

    /// Imports the CSV (see `importGuests(csv:event:)` for the bytes of a file).
    public func importGuests(csv: String, event: EventID) async throws -> ImportOutcome {
        try await importGuests(csv: Array(csv.utf8), event: event)
    }

    /// What importing the file would do, nothing written: each line adds a guest, updates the one it names by
    /// `guest_id` (or, without one, by e-mail), or changes nothing. Bad lines throw `Failure.badLines`.
    public func previewImport(csv bytes: [UInt8], event: EventID) async throws -> GuestImportPlan {
        _ = try await existingEvent(event)
        switch GuestCSV.parseRows(bytes: bytes) {
        case .failure(let failure):
            throw Failure.badLines(failure.problems)
        case .success(let rows):
            let existing = try await repository.searchGuests(event: event, text: "", limit: Int(Int32.max))
            return GuestImportPlan(rows: rows, existing: existing)
        }
    }

    /// Imports a CSV file's bytes as uploaded or read, all or nothing: new guests are added, guests the file
    /// names by `guest_id` or e-mail get its values (importing the same file twice adds nobody twice), and a
    /// bad line imports nothing (`Failure.badLines`). Bytes that are not UTF-8 (a Latin-1 or UTF-16 export) are
    /// refused with their line, never read into altered names.
    public func importGuests(csv bytes: [UInt8], event: EventID) async throws -> ImportOutcome {
        let known = try await existingEvent(event)
        let plan = try await previewImport(csv: bytes, event: event)
        do {
            let (added, updated) = try await repository.importGuests(
                adding: plan.additions, updating: plan.updates, event: event, at: clock.now())
            try await audit(
                known.tenant, "guests_imported",
                "\(added.count) added, \(updated.count) updated, \(plan.unchanged) unchanged in event \(event)")
            return ImportOutcome(added: added, updated: updated, unchanged: plan.unchanged)
        } catch RepositoryError.duplicateGuest(let id) {
            throw Failure.invalid(
                "nothing imported: guest id \(id) was added to event \(event) meanwhile; import again")
        } catch RepositoryError.notFound(let what) {
            throw Failure.invalid("nothing imported: \(what) left event \(event) meanwhile; import again")
        }
    }

    /// Adds one guest (a walk-in): kiosks learn it with their next delta.
    public func addGuest(_ input: GuestInput, event: EventID) async throws -> Guest {
        let known = try await existingEvent(event)
        if let problem = GuestFields.problem(
            name: input.name, email: input.email, phone: input.phone, ticketType: input.givenTicketType,
            note: input.checkInNote, arrivalAlert: input.arrivalAlert)
        {
            throw Failure.invalid(problem)
        }
        let partySize = input.partySize ?? 1
        guard (1...99).contains(partySize) else { throw Failure.invalid("party size \(partySize) is not from 1 to 99") }
        let guest = NewGuest(
            name: input.name, email: input.email, phone: input.phone, partySize: partySize,
            ticketType: input.givenTicketType, checkInNote: input.checkInNote,
            arrivalAlert: input.arrivalAlert)
        let added = try await repository.addGuests([guest], event: event, at: clock.now())[0]
        try await audit(known.tenant, "guest_added", "guest \(added.id.text) to event \(event)")
        return added
    }

    /// Gives a guest new values (name, e-mail, phone, party size, ticket type, note, arrival alert), checked as
    /// a new guest's are: kiosks learn them with their next delta. The pass stays the same (it names the guest's
    /// id, not the name).
    public func editGuest(_ code: String, _ input: GuestInput, event: EventID) async throws -> Guest {
        let known = try await existingEvent(event)
        guard let id = GuestID(text: code), let current = try await repository.guest(id, event: event) else {
            throw Failure.notFound("guest \(code) in event \(event)")
        }
        if let problem = GuestFields.problem(
            name: input.name, email: input.email, phone: input.phone, ticketType: input.givenTicketType,
            note: input.checkInNote, arrivalAlert: input.arrivalAlert)
        {
            throw Failure.invalid(problem)
        }
        let partySize = input.partySize ?? current.partySize
        guard (1...99).contains(partySize) else { throw Failure.invalid("party size \(partySize) is not from 1 to 99") }
        let values = NewGuest(
            id: id, name: input.name.trimmingCharacters(in: .whitespaces), email: input.email, phone: input.phone,
            partySize: partySize, ticketType: input.givenTicketType, checkInNote: input.checkInNote,
            arrivalAlert: input.arrivalAlert, status: current.status)
        do {
            let (_, updated) = try await repository.importGuests(
                adding: [], updating: [GuestImportPlan.Update(id: id, guest: values)], event: event, at: clock.now())
            try await audit(known.tenant, "guest_edited", "guest \(id.text) of event \(event)")
            return updated[0]
        } catch RepositoryError.notFound {
            throw Failure.notFound("guest \(id.text) in event \(event)")
        }
    }

    public func cancelGuest(_ code: String, event: EventID) async throws -> Guest {
        let known = try await existingEvent(event)
        guard let id = GuestID(text: code) else {
            throw Failure.invalid("'\(code)' is not a guest id (16 base32 characters)")
        }
        do {
            let guest = try await repository.cancelGuest(id, event: event, at: clock.now())
            try await audit(known.tenant, "guest_cancelled", "guest \(id.text) of event \(event)")
            return guest
        } catch RepositoryError.notFound {
            throw Failure.notFound("guest \(id.text) in event \(event)")
        }
    }

    /// The undo of a cancellation: the guest is active again and kiosks admit the pass after their next delta.
    public func reinstateGuest(_ code: String, event: EventID) async throws -> Guest {
        let known = try await existingEvent(event)
        guard let id = GuestID(text: code) else {
            throw Failure.invalid("'\(code)' is not a guest id (16 base32 characters)")
        }
        do {
            let guest = try await repository.reinstateGuest(id, event: event, at: clock.now())
            try await audit(known.tenant, "guest_reinstated", "guest \(id.text) of event \(event)")
            return guest
        } catch RepositoryError.notFound {
            throw Failure.notFound("guest \(id.text) in event \(event)")
        }
    }

    /// A new one-time enrolment code for a kiosk of the event's tenant: the text is returned once and only
    /// its SHA-256 is kept.
    public func createEnrolmentCode(
        event: EventID, replacesDevice: String? = nil, list: ListID? = nil, direction: Direction = .entry
    ) async throws -> EnrolmentCodeAnswer {
        let known = try await existingEvent(event)
        if let list { _ = try await existingList(list, event: event) }
        let code = Secrets.newEnrolmentCode()
        let now = clock.now()
        let expires = now.addingTimeInterval(EnrolmentCode.lifetime)
        do {
            try await repository.createEnrolmentCode(
                EnrolmentCode(
                    codeHash: Secrets.hash(enrolmentCode: code), tenant: known.tenant, event: event,
                    replacesDevice: replacesDevice, createdAt: now, expiresAt: expires, createdBy: actor,
                    gate: Gate(list: list, direction: direction)))
        } catch RepositoryError.notFound(let what) {
            throw Failure.notFound(what)
        }
        try await audit(
            known.tenant, "enrolment_code_created",
            "for event \(event)" + (replacesDevice.map { ", replacing device \($0)" } ?? "")
                + (list.map { ", check-in list \($0)" } ?? "") + (direction == .exit ? ", exit" : ""))
        return EnrolmentCodeAnswer(code: code, expiresAt: expires)
    }

    /// The event's check-ins, then its check-in events, one JSON object a line.
    public func exportLines(event: EventID) async throws -> [String] {
        let known = try await existingEvent(event)
        let encoder = APICoding.encoder()
        var lines: [String] = []
        let checkIns = try await repository.listCheckIns(event: event)
        for checkIn in checkIns {
            var line = ExportLine(checkIn)
            line.flag(outside: known)
            lines.append(String(decoding: try encoder.encode(line), as: UTF8.self))
        }
        // A superseded scan names the check-in of its own list that won.
        struct Key: Hashable {
            var guest: String
            var list: ListID?
        }
        let winners = Dictionary(
            checkIns.map { (Key(guest: $0.guest.text, list: $0.list), $0) }, uniquingKeysWith: { first, _ in first })
        let records = try await repository.checkInEvents(event: event)
        for record in records {
            var line = ExportLine(record)
            line.flag(outside: known)
            if record.outcome == .superseded, let winner = winners[Key(guest: record.guest, list: record.list)] {
                line.checkInDoor = winner.door
                line.checkInAt = winner.correctedTime
            }
            lines.append(String(decoding: try encoder.encode(line), as: UTF8.self))
        }
        return lines + (try await doubleEntryLines(known, records: records))
    }

    /// The event's double entries (a guest admitted at two doors while they were offline), by time.
    public func doubleEntries(event: EventID) async throws -> [DoubleEntry] {
        _ = try await existingEvent(event)
        return try await repository.doubleEntries(event: event)
    }

    /// The double-entry report as the export's `double_entry` JSON lines (`checkin-server double-entries
    /// --json`).
    public func doubleEntryLines(event: EventID) async throws -> [String] {
        try await doubleEntryLines(try await existingEvent(event), records: nil)
    }

    /// Each double entry as the superseded scan's export line, with the check-in, the gap and the guest's name.
    /// `records`: the event's check-in events, when the caller has read them already.
    private func doubleEntryLines(_ event: Event, records: [CheckInEvent]?) async throws -> [String] {
        let entries = try await repository.doubleEntries(event: event.id)
        guard !entries.isEmpty else { return [] }
        var events = records ?? []
        if records == nil { events = try await repository.checkInEvents(event: event.id) }
        let byKey = Dictionary(events.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        let encoder = APICoding.encoder()
        return try entries.compactMap { entry in
            guard let record = byKey[entry.otherKey] else { return nil }
            var line = ExportLine(record)
            line.flag(outside: event)
            line.record = "double_entry"
            line.guestName = entry.guestName
            line.checkInDoor = entry.checkInDoor
            line.checkInAt = entry.checkInAt
            line.gapSeconds = entry.gapSeconds
            return String(decoding: try encoder.encode(line), as: UTF8.self)
        }
    }

    /// The tenant's devices with their last reports.
    public func devices(tenant: TenantID) async throws -> [Device] {
        guard try await repository.tenant(tenant) != nil else { throw Failure.notFound("tenant \(tenant)") }
        return try await repository.devices(tenant: tenant)
    }

    /// Revokes a device's token (a lost or stolen kiosk): its requests get `401` from now on. A code made
    /// with `replacesDevice` enrols it again.
    public func revokeDevice(_ id: String, tenant: TenantID) async throws {
        do {
            try await repository.revokeDevice(id, tenant: tenant, at: clock.now())
        } catch RepositoryError.notFound {
            throw Failure.notFound("device \(id) of tenant \(tenant)")
        }
        try await audit(tenant, "device_revoked", "device \(id)")
    }

    /// The audit log, latest first, one JSON object a line.
    public func auditLines(tenant: TenantID?, limit: Int) async throws -> [String] {
        let encoder = APICoding.encoder()
        return try await repository.auditEntries(tenant: tenant, limit: limit).map { entry in
            String(decoding: try encoder.encode(AuditLine(entry)), as: UTF8.self)
        }
    }

    /// Makes a new admin token for the admin API, keeps its SHA-256 and returns the token (shown once).
    public func newAdminToken() async throws -> String {
        let token = Secrets.newAdminToken()
        try await repository.setAdminTokenHash(Secrets.hash(token: token), at: clock.now())
        try await repository.appendAudit(
            AuditEntry(
                at: clock.now(), tenant: nil, device: nil, action: "admin_token_created",
                detail: "the previous admin token no longer works"))
        return token
    }

    public func existingEvent(_ id: EventID) async throws -> Event {
        guard let event = try await repository.event(id) else { throw Failure.notFound("event \(id)") }
        return event
    }

    func audit(_ tenant: TenantID, _ action: String, _ detail: String) async throws {
        try await repository.appendAudit(
            AuditEntry(
                at: clock.now(), tenant: tenant, device: nil, action: action,
                detail: actor == "admin" ? detail : "\(detail), by organizer \(actor)"))
    }
}

/// One line of the export: `record` is `check_in` or `check_in_event`.
struct ExportLine: Encodable {
    var record: String
    var eventId: UInt32
    var guestId: String
    var deviceId: String
    var epoch: String
    var sequence: Int64
    var door: String
    var scannedAt: Date
    var correctedAt: Date
    var receivedAt: Date
    var arrived: Int
    var kind: String?
    var source: String?
    var outcome: String?
    var reason: String?
    var reverts: ItemKey?
    /// For a superseded scan and a double entry: the guest's check-in that won.
    var checkInDoor: String?
    var checkInAt: Date?
    /// For a double entry: seconds from the check-in to this scan, and the guest's name.
    var gapSeconds: Double?
    var guestName: String?
    /// Present (true) when the corrected time sits outside the event's window (`Event.isOutsideWindow`).
    var outsideWindow: Bool?
    /// The check-in list (issue 51) and which way the guest went: `entry` for a check-in, a re-confirmation or
    /// an entry scan, `exit` for an exit; none for a revert.
    var list: UInt32?
    var direction: String?

    mutating func flag(outside event: Event) {
        outsideWindow = event.isOutsideWindow(correctedAt) ? true : nil
    }

    init(_ checkIn: CheckinCore.CheckIn) {
        record = "check_in"
        eventId = checkIn.event.rawValue
        guestId = checkIn.guest.text
        deviceId = checkIn.scanKey.deviceId
        epoch = checkIn.scanKey.epoch
        sequence = checkIn.scanKey.sequence
        door = checkIn.door
        scannedAt = checkIn.deviceTime
        correctedAt = checkIn.correctedTime
        receivedAt = checkIn.receivedAt
        arrived = checkIn.arrived
        list = checkIn.list?.rawValue
        direction = "entry"
    }

    init(_ record: CheckInEvent) {
        self.record = "check_in_event"
        eventId = record.event.rawValue
        guestId = record.guest
        deviceId = record.key.deviceId
        epoch = record.key.epoch
        sequence = record.key.sequence
        door = record.door
        scannedAt = record.deviceTime
        correctedAt = record.correctedTime
        receivedAt = record.receivedAt
        arrived = record.arrived
        kind = record.kind.rawValue
        source = record.source
        outcome = record.outcome.rawValue
        reason = record.reason
        reverts = record.reverts.map { ItemKey(deviceId: $0.deviceId, epoch: $0.epoch, sequence: $0.sequence) }
        list = record.list?.rawValue
        direction =
            switch record.kind {
            case .checkIn, .reconfirm: "entry"
            case .exit: "exit"
            case .revert: nil
            }
    }
}

/// One line of `checkin-server audit`.
struct AuditLine: Encodable {
    var at: Date
    var tenantId: UInt32?
    var deviceId: String?
    var action: String
    var detail: String

    init(_ entry: AuditEntry) {
        at = entry.at
        tenantId = entry.tenant?.rawValue
        deviceId = entry.device
        action = entry.action
        detail = entry.detail
    }
}
