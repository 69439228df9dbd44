import ArgumentParser
import CheckinAdmin
import CheckinCore
import CheckinPostgres
import CheckinSQLite
import CheckinServer
import EntryRules
import Foundation
import PassFormat
import PostgresNIO
import WireAPI

/// Opens the database and runs an admin operation; its failures become one clear line and exit status 1.
func withAdmin<T: Sendable>(_ options: DatabaseOption, _ body: (CheckinAdmin) async throws -> T) async throws -> T {
    let secrets = try options.secretsKey()
    if let configuration = try options.postgresConfiguration() {
        // The client runs beside the command, and stops when it is done.
        let client = PostgresClient(configuration: configuration)
        return try await withThrowingTaskGroup(of: Void.self, returning: T.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            let repository = PostgresCheckinRepository(client: client, secrets: secrets)
            do {
                try await repository.migrate()
            } catch {
                throw ValidationError(
                    "cannot open the database \(options.storeDescription): \(String(reflecting: error))")
            }
            return try await withAdmin(repository, body)
        }
    }
    return try await withAdmin(try options.openSQLite(secrets: secrets), body)
}

func withAdmin<T>(_ repository: any CheckinRepository, _ body: (CheckinAdmin) async throws -> T) async throws -> T {
    do {
        return try await body(CheckinAdmin(repository: repository))
    } catch let failure as CheckinAdmin.Failure {
        note("checkin-server: \(failure)")
        throw ExitCode.failure
    }
}

/// A sentence for people, on standard error (standard output carries the value).
func note(_ text: String) { CommandIO.note(text) }

func parseTime(_ text: String, _ name: String) throws -> Date {
    guard let date = APITime.date(text) else {
        throw ValidationError("\(name) '\(text)' is not an RFC 3339 time such as 2026-12-01T18:00:00Z")
    }
    return date
}

struct AdminToken: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "admin-token", abstract: "Make a new admin token for /v1/admin (the previous one stops working).")
    @OptionGroup var options: DatabaseOption

    func run() async throws {
        let token = try await withAdmin(options) { try await $0.newAdminToken() }
        CommandIO.value(token)
        note(
            "admin token made; it is shown only now (the server keeps its SHA-256). Send it as 'Authorization: Bearer <token>'."
        )
    }
}

struct CreateTenant: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create-tenant", abstract: "Create a tenant (an organizer account); prints its id.")
    @OptionGroup var options: DatabaseOption
    @Option(help: "The organizer's name.") var name: String

    func run() async throws {
        let tenant = try await withAdmin(options) { try await $0.createTenant(name: name) }
        CommandIO.value(tenant.id)
        note("created tenant \(tenant.id) (\(tenant.name))")
    }
}

struct CreateOrganizer: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create-organizer",
        abstract: "Create an organizer's sign-in for the tenant's web pages; the password is read from standard input.")
    @OptionGroup var options: DatabaseOption
    @Option(help: "The tenant's id.") var tenant: UInt32
    @Option(help: "The e-mail address they sign in with.") var email: String
    @Option(help: "Their name, shown on the pages.") var name: String

    func run() async throws {
        guard let line = CommandIO.readLine(), !line.isEmpty else {
            throw ValidationError("give the password on standard input (one line), e.g. from a file: < password.txt")
        }
        let organizer = try await withAdmin(options) {
            try await $0.createOrganizer(tenant: TenantID(tenant), email: email, name: name, password: line)
        }
        CommandIO.value(organizer.id)
        note("created organizer \(organizer.id) (\(organizer.email)) of tenant \(organizer.tenant)")
    }
}

struct SetOrganizerPassword: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set-organizer-password",
        abstract: "Give an organizer a new password (read from standard input); their sessions end.")
    @OptionGroup var options: DatabaseOption
    @Option(help: "The e-mail address they sign in with.") var email: String

    func run() async throws {
        guard let line = CommandIO.readLine(), !line.isEmpty else {
            throw ValidationError("give the password on standard input (one line), e.g. from a file: < password.txt")
        }
        let organizer = try await withAdmin(options) { try await $0.setOrganizerPassword(email: email, password: line) }
        note("set the password of organizer \(organizer.email); their sessions have ended")
    }
}

struct UnlockOrganizer: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unlock-organizer",
        abstract: "Let an organizer locked out by wrong passwords sign in again at once (from every address).")
    @OptionGroup var options: DatabaseOption
    @Option(help: "The e-mail address they sign in with.") var email: String

    func run() async throws {
        let organizer = try await withAdmin(options) { try await $0.unlockOrganizer(email: email) }
        note("unlocked organizer \(organizer.email) of tenant \(organizer.tenant): they can sign in again now")
    }
}

struct CreateEvent: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create-event", abstract: "Create an event of a tenant; prints its id.")
    @OptionGroup var options: DatabaseOption
    @Option(help: "The tenant's id.") var tenant: UInt32
    @Option(help: "The event's name.") var name: String
    @Option(help: "Start, RFC 3339 (2026-12-01T18:00:00Z).") var starts: String
    @Option(help: "End, RFC 3339.") var ends: String
    @Option var venue: String?
    @Option(name: .customLong("ops-contact"), help: "Who door staff call.") var opsContact: String?
    @Option(name: .customLong("grace-minutes"), help: "Minutes after the end that scans are still taken.")
    var graceMinutes = 60
    @Option(name: .customLong("minimum-kiosk-version"), help: "Older kiosks get 'update required'.")
    var minimumKioskVersion: String?
    @Option(
        name: .customLong("time-zone"),
        help:
            "The venue's IANA time zone (Europe/Berlin): the pages show the event's times in it. Default: this server's."
    )
    var timeZone: String?

    func run() async throws {
        let input = EventInput(
            name: name, venue: venue, opsContact: opsContact, startsAt: try parseTime(starts, "--starts"),
            endsAt: try parseTime(ends, "--ends"), graceMinutes: graceMinutes, minimumKioskVersion: minimumKioskVersion,
            timeZone: timeZone)
        let event = try await withAdmin(options) { try await $0.createEvent(input, tenant: TenantID(tenant)) }
        CommandIO.value(event.id)
        note("created event \(event.id) (\(event.name)) of tenant \(event.tenant)")
    }
}

struct ImportGuests: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import-guests",
        abstract: "Import guests from CSV (RFC 4180); a bad line is reported with its number and nothing is imported.",
        discussion:
            "Columns: name (required), guest_id, email, phone, party_size, ticket_type, notes, arrival_alert, status.")
    @OptionGroup var options: DatabaseOption
    @Option(help: "The event's id.") var event: UInt32
    @Option(help: "The CSV file.") var csv: String

    func run() async throws {
        // The file's bytes: the reader refuses what is not UTF-8 with its line (it is never decoded here).
        guard let data = FileManager.default.contents(atPath: csv) else {
            throw ValidationError("cannot read \(csv): check the path and that this user may read it")
        }
        let bytes = [UInt8](data)
        let outcome = try await withAdmin(options) { try await $0.importGuests(csv: bytes, event: EventID(event)) }
        CommandIO.value(outcome.added.count)
        note(
            "imported \(csv) into event \(event): \(outcome.added.count) added, \(outcome.updated.count) updated, "
                + "\(outcome.unchanged) unchanged")
    }
}

struct AddGuest: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add-guest", abstract: "Add one guest (a walk-in); prints the confirmation code.")
    @OptionGroup var options: DatabaseOption
    @Option(help: "The event's id.") var event: UInt32
    @Option var name: String
    @Option var email: String?
    @Option var phone: String?
    @Option(name: .customLong("party-size")) var partySize = 1
    @Option(
        name: [.customLong("ticket-type"), .customLong("access-type", withSingleDash: false)],
        help: "The guest's ticket type (General, VIP): check-in lists admit by it.")
    var ticketType: String?
    @Option(help: "The check-in note shown at the door.") var note: String?
    @Option(name: .customLong("arrival-alert")) var arrivalAlert: String?

    func run() async throws {
        let input = GuestInput(
            name: name, email: email, phone: phone, partySize: partySize, ticketType: ticketType,
            checkInNote: note, arrivalAlert: arrivalAlert)
        let guest = try await withAdmin(options) { try await $0.addGuest(input, event: EventID(event)) }
        CommandIO.value(guest.id.text)
        CheckinServerCommand.note("added \(guest.name) to event \(event); confirmation code \(guest.id.displayCode)")
    }
}

extension CheckinServerCommand {
    static func note(_ text: String) { CommandIO.note(text) }
}

struct CancelGuest: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cancel-guest", abstract: "Cancel a guest; kiosks learn it with their next delta.")
    @OptionGroup var options: DatabaseOption
    @Option(help: "The event's id.") var event: UInt32
    @Option(help: "The guest's confirmation code (dashes optional).") var guest: String

    func run() async throws {
        let cancelled = try await withAdmin(options) { try await $0.cancelGuest(guest, event: EventID(event)) }
        CommandIO.value(cancelled.id.text)
        note("cancelled \(cancelled.name) (\(cancelled.id.displayCode)) in event \(event)")
    }
}

struct EnrolmentCode: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "enrolment-code",
        abstract: "Make a one-time enrolment code for a kiosk (valid 24 hours); printed once.")
    @OptionGroup var options: DatabaseOption
    @Option(help: "The event's id (the kiosk gets its tenant's events).") var event: UInt32
    @Option(name: .customLong("replaces-device"), help: "Re-enrol this device (a replaced kiosk).") var replacesDevice:
        String?
    @Option(help: "The check-in list the kiosk serves (see lists). Default: the event's first.") var list: UInt32?
    @Option(help: "entry or exit: which way the kiosk lets guests through.") var direction = "entry"

    func run() async throws {
        let direction = try SetGate.direction(direction)
        let answer = try await withAdmin(options) {
            try await $0.createEnrolmentCode(
                event: EventID(event), replacesDevice: replacesDevice, list: list.map(ListID.init), direction: direction
            )
        }
        CommandIO.value(answer.code)
        note(
            "one-time enrolment code, valid until \(APITime.text(answer.expiresAt)); it is shown only now. On the kiosk: kioskctl enroll --server URL --code \(answer.code)"
        )
    }
}

struct Export: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the event's check-ins and check-in events as JSON lines (record: check_in or check_in_event).")
    @OptionGroup var options: DatabaseOption
    @Option(help: "The event's id.") var event: UInt32

    func run() async throws {
        let lines = try await withAdmin(options) { try await $0.exportLines(event: EventID(event)) }
        for line in lines { CommandIO.value(line) }
        note("\(lines.count) lines")
    }
}
