import ArgumentParser
import CheckinServer
import Foundation
import PassFormat
import WireAPI

struct Devices: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List a tenant's kiosks: id, door, version, last seen, pending, revoked (tab-separated).")
    @OptionGroup var options: DatabaseOption
    @Option(help: "The tenant's id.") var tenant: UInt32

    func run() async throws {
        let devices = try await withAdmin(options) { try await $0.devices(tenant: TenantID(tenant)) }
        for device in devices {
            let seen = device.lastSeenAt.map(APITime.text) ?? "never"
            let pending = device.lastReport.map { String($0.pending) } ?? "-"
            CommandIO.value(
                [device.id, device.door, device.kioskVersion, seen, pending, device.revoked ? "revoked" : "active"]
                    .joined(separator: "\t"))
        }
        note("\(devices.count) devices of tenant \(tenant)")
    }
}

struct RevokeDevice: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "revoke-device",
        abstract: "Revoke a kiosk's token (lost or stolen); enrol it again with enrolment-code --replaces-device.")
    @OptionGroup var options: DatabaseOption
    @Option(help: "The tenant's id.") var tenant: UInt32
    @Option(help: "The device's id (see devices).") var device: String

    func run() async throws {
        try await withAdmin(options) { try await $0.revokeDevice(device, tenant: TenantID(tenant)) }
        CommandIO.value(device)
        note("revoked \(device): its requests are refused from now on")
    }
}

struct Audit: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the audit log, latest first, as JSON lines (cross-tenant attempts, enrolments, imports...).")
    @OptionGroup var options: DatabaseOption
    @Option(help: "Only this tenant's entries.") var tenant: UInt32?
    @Option(help: "How many entries.") var limit = 100

    func run() async throws {
        let lines = try await withAdmin(options) {
            try await $0.auditLines(tenant: tenant.map(TenantID.init), limit: limit)
        }
        for line in lines { CommandIO.value(line) }
    }
}
