import CheckinCore
import CheckinServer
import Foundation
import Hummingbird
import HummingbirdTesting
import KioskCore
import PostgresTestSupport
import Testing
import WireAPI

/// A redeem whose answer was lost: the kiosk asks again with the same code and its nonce, and gets the same
/// device with a fresh token (the older one stops); any other nonce still finds the code spent.
@Suite(.dropsTestDatabases) struct EnrolmentRetryTests {
    static func redeem(_ client: some TestClientProtocol, code: String, nonce: String?) async throws -> (
        HTTPResponse.Status, Enrolment?
    ) {
        try await client.execute(
            uri: "/v1/enrolments/redeem", method: .post, headers: [.contentType: "application/json"],
            body: Harness.json(EnrolmentRequest(code: code, door: "North", kioskVersion: "1.0.0", nonce: nonce))
        ) { response in
            (response.status, response.status == .ok ? try Harness.decode(Enrolment.self, response.body) : nil)
        }
    }

    @Test(arguments: RepositoryFactory.all)
    func theSameNonceGetsTheSameDeviceAnotherNonceGets410(_ factory: RepositoryFactory) async throws {
        let h = try await Harness(factory)
        let (_, event, _) = try await h.event(guests: 1)
        let code = try await h.admin.createEnrolmentCode(event: event.id).code
        let nonce = "N" + String(repeating: "7", count: 31)
        try await h.app().test(.router) { client in
            let (firstStatus, first) = try await Self.redeem(client, code: code, nonce: nonce)
            #expect(firstStatus == .ok)
            let lost = try #require(first)
            // The answer was lost; the kiosk asks again.
            let (againStatus, again) = try await Self.redeem(client, code: code, nonce: nonce)
            #expect(againStatus == .ok)
            #expect(again?.deviceId == lost.deviceId)
            #expect(again?.queueEpoch == lost.queueEpoch)
            #expect(again?.token != lost.token)
            // The token of the lost answer no longer works; the new one does.
            for (token, expected) in [(lost.token, HTTPResponse.Status.unauthorized), (again!.token, .ok)] {
                let status = try await client.execute(
                    uri: "/v1/events/\(event.id.rawValue)/roster", method: .get,
                    headers: [.authorization: "Bearer \(token)", CheckinHeader.kioskVersion: "1.0.0"]
                ) { $0.status }
                #expect(status == expected)
            }
            // Another kiosk with the code (another nonce, or none) finds it spent.
            #expect(
                try await Self.redeem(client, code: code, nonce: "M" + String(repeating: "2", count: 31)).0 == .gone)
            #expect(try await Self.redeem(client, code: code, nonce: nil).0 == .gone)
            // One device, not three.
            #expect(try await h.repository.devices(event: event.id).count == 1)
            // A nonce that is not 16 to 128 characters is refused.
            #expect(try await Self.redeem(client, code: code, nonce: "short").0 == .badRequest)
        }
    }

    @Test(arguments: [RepositoryFactory.sqliteInMemory])
    func anExpiredCodeIsGoneEvenWithTheNonce(_ factory: RepositoryFactory) async throws {
        let h = try await Harness(factory)
        let (_, event, _) = try await h.event(guests: 1)
        let code = try await h.admin.createEnrolmentCode(event: event.id).code
        let nonce = String(repeating: "Q", count: 32)
        try await h.app().test(.router) { client in
            let first = try await Self.redeem(client, code: code, nonce: nonce).0
            h.clock.advance(by: 25 * 3600)
            let later = try await Self.redeem(client, code: code, nonce: nonce).0
            #expect(first == .ok)
            #expect(later == .gone)
        }
    }
}
