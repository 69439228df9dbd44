import CheckinCore
import CheckinServer
import Foundation
import Hummingbird
import HummingbirdTesting
import KioskCore
import PassFormat
import Testing
import WireAPI

@testable import CheckinAdmin

/// A server on a repository with a manual clock, and the API's coding for requests and answers.
struct Harness {
    let repository: any CheckinRepository
    let clock: ManualServerClock
    let admin: CheckinAdmin
    static let start = APITime.date("2026-12-01T17:00:00.000Z")!

    init(_ factory: RepositoryFactory) async throws {
        repository = try await factory.make()
        clock = ManualServerClock(Self.start)
        admin = CheckinAdmin(repository: repository, clock: clock)
    }

    func app(
        issuance: PassIssuanceSteps? = nil, allowPlainHTTPWebhooks: Bool = false, allowPrivateWebhooks: Bool = false,
        limits: EdgeLimits = EdgeLimits()
    ) throws -> some ApplicationProtocol {
        var limits = limits
        limits.allowPlainHTTPWebhooks = limits.allowPlainHTTPWebhooks || allowPlainHTTPWebhooks
        limits.allowPrivateWebhooks = limits.allowPrivateWebhooks || allowPrivateWebhooks
        return try buildApplication(
            configuration: ServerConfiguration(host: "127.0.0.1", port: 0, limits: limits),
            repository: repository, clock: clock, issuance: issuance)
    }

    /// A tenant with one event and `guests` guests.
    func event(tenantName: String = "Acme", guests: Int = 3, minimumKioskVersion: String? = nil) async throws -> (
        Tenant, Event, [Guest]
    ) {
        let tenant = try await admin.createTenant(name: tenantName)
        let event = try await admin.createEvent(
            EventInput(
                name: "Gala", venue: "Hall", startsAt: Self.start, endsAt: Self.start.addingTimeInterval(6 * 3600),
                minimumKioskVersion: minimumKioskVersion),
            tenant: tenant.id)
        let new = (0..<guests).map { NewGuest(name: "Guest \($0)") }
        let added = try await repository.addGuests(new, event: event.id, at: clock.now())
        return (tenant, event, added)
    }

    /// Ann (ann@example.org), an organizer of `tenant` who signs in with `WebPageTests.password`.
    func organizer(of tenant: Tenant) async throws {
        _ = try await admin.createOrganizer(
            tenant: tenant.id, email: "ann@example.org", name: "Ann", password: WebPageTests.password)
    }

    static func json(_ value: some Encodable) throws -> ByteBuffer {
        ByteBuffer(bytes: try APICoding.encoder().encode(value))
    }

    static func decode<T: Decodable>(_ type: T.Type, _ buffer: ByteBuffer) throws -> T {
        try APICoding.decoder().decode(T.self, from: Data(buffer.readableBytesView))
    }
}

/// A device enrolled through the API.
struct EnrolledDevice {
    let enrolment: Enrolment
    var token: String { enrolment.token }
    var id: String { enrolment.deviceId }

    var headers: HTTPFields { [.authorization: "Bearer \(token)", CheckinHeader.kioskVersion: "1.0.0"] }

    func item(
        _ sequence: Int64, guest: Guest, kind: ItemKind = .checkIn, at time: Date, offsetMs: Int64? = 0,
        door: String = "North", reverts: ItemKey? = nil
    ) -> CheckInItem {
        CheckInItem(
            key: ItemKey(deviceId: id, epoch: enrolment.queueEpoch, sequence: sequence), guestId: guest.id.text,
            kind: kind, scannedAt: time, clockOffsetMs: offsetMs, arrived: 1, door: door, source: "camera",
            reverts: reverts)
    }
}

extension TestClientProtocol {
    /// Redeems a fresh enrolment code for `event`.
    func enrol(_ harness: Harness, event: EventID, door: String = "North") async throws -> EnrolledDevice {
        let code = try await harness.admin.createEnrolmentCode(event: event).code
        return try await execute(
            uri: "/v1/enrolments/redeem", method: .post, headers: [.contentType: "application/json"],
            body: Harness.json(EnrolmentRequest(code: code, door: door, kioskVersion: "1.0.0"))
        ) { response throws in
            #expect(response.status == .ok)
            return EnrolledDevice(enrolment: try Harness.decode(Enrolment.self, response.body))
        }
    }

    func upload(_ items: [CheckInItem], event: EventID, as device: EnrolledDevice) async throws -> CheckInBatchResult {
        try await execute(
            uri: "/v1/events/\(event)/check-ins", method: .post, headers: device.headers,
            body: Harness.json(CheckInBatch(items: items))
        ) { response throws in
            #expect(response.status == .ok)
            return try Harness.decode(CheckInBatchResult.self, response.body)
        }
    }

    func roster(_ query: String, event: EventID, as device: EnrolledDevice) async throws -> RosterPage {
        try await execute(uri: "/v1/events/\(event)/roster\(query)", method: .get, headers: device.headers) {
            response throws in
            #expect(response.status == .ok)
            return try Harness.decode(RosterPage.self, response.body)
        }
    }
}
