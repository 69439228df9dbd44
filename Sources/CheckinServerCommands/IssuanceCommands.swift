import ArgumentParser
import CheckinAdmin
import CheckinCore
import CheckinServer
import PassFormat

struct SigningKeys: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "signing-keys",
        abstract: "Print the kiosk.conf 'trusted_key' lines of a tenant's pass-signing keys (made if none yet).",
        discussion: """
            The server signs the passes it issues with the tenant's newest key; the private keys never leave its
            database. --rotate adds a new key that signs from now on; passes signed before keep verifying as long
            as the kiosks keep the older lines.
            """)

    @OptionGroup var options: DatabaseOption
    @Option(help: "The tenant's id.") var tenant: UInt32
    @Flag(help: "Add a new signing key first.") var rotate = false

    func run() async throws {
        let keys = try await withAdmin(options) { admin in
            try await admin.signingKeys(tenant: TenantID(tenant), rotate: rotate)
        }
        for line in CheckinAdmin.trustedKeyLines(keys) { CommandIO.value(line) }
        note(
            "\(keys.count) signing key(s) of tenant \(tenant), newest first: add these lines to each kiosk's kiosk.conf"
        )
    }
}

struct WebhookSecretCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webhook-secret",
        abstract: "Make a new secret (whsec_...) for a tenant's guest webhooks and print it.",
        discussion: """
            Give it to the system that sends guests (POST /v1/webhooks/tenants/TENANT/guests, signed as Standard
            Webhooks says). The previous secret keeps verifying for 24 hours, so the sender can switch over.
            """)

    @OptionGroup var options: DatabaseOption
    @Option(help: "The tenant's id.") var tenant: UInt32

    func run() async throws {
        let secret = try await withAdmin(options) { admin in try await admin.newWebhookSecret(tenant: TenantID(tenant))
        }
        CommandIO.value(secret)
        note("webhook secret for tenant \(tenant): shown once; the previous one stays valid for 24 hours")
    }
}
