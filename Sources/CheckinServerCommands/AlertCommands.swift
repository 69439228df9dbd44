import ArgumentParser
import CheckinAdmin
import CheckinCore
import CheckinServer
import PassFormat

struct OfflineAlertsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "offline-alerts",
        abstract: "Set (or show) where an event's offline alerts go: an e-mail address, a webhook URL, or both.",
        discussion: """
            A kiosk silent for 30 minutes, from 2 hours before the event until it closes, is alerted once per
            silence, and again when it reports back. Webhooks are POSTs of JSON signed as Standard Webhooks; the
            secret is printed when it is made (afterwards only its last 4 characters). With neither option, prints the settings; --off turns the alerts off. The devices
            page of the organizer's site sets the same.
            """)

    @OptionGroup var options: DatabaseOption
    @Option(help: "The event's id.") var event: UInt32
    @Option(help: "The address alerts are e-mailed to.") var email: String?
    @Option(name: .customLong("webhook-url"), help: "The https URL alerts are posted to.") var webhookURL: String?
    @Flag(name: .customLong("allow-http"), help: "Accept a plain http webhook URL (a receiver on the venue's LAN).")
    var allowHTTP = false
    @Flag(
        name: .customLong("allow-private"),
        help: "Accept a webhook on a loopback, private or link-local address (a receiver on the venue's LAN).")
    var allowPrivate = false
    @Flag(help: "Turn the event's alerts off.") var off = false

    func validate() throws {
        if off && (email != nil || webhookURL != nil) {
            throw ValidationError("give --off alone, or --email and/or --webhook-url")
        }
    }

    func run() async throws {
        let (settings, before) = try await withAdmin(options) { admin in
            guard let known = try await admin.repository.event(EventID(event)) else {
                throw CheckinAdmin.Failure.notFound("event \(event)")
            }
            let before = try await admin.repository.offlineAlerts(event: known.id)
            if email == nil && webhookURL == nil && !off { return (before, before.webhookSecret) }
            let settings = try await admin.setOfflineAlerts(
                event: known, email: email ?? "", webhookURL: webhookURL ?? "", allowPlainHTTP: allowHTTP,
                allowPrivate: allowPrivate)
            return (settings, before.webhookSecret)
        }
        CommandIO.value("email\t\(settings.email ?? "-")")
        CommandIO.value("webhook_url\t\(settings.webhookURL ?? "-")")
        if settings.webhookURL != nil, let secret = settings.webhookSecret {
            // Whole only when just made; then its last 4 characters, to tell which one a receiver holds.
            CommandIO.value("webhook_secret\t" + (secret != before ? secret : "…" + secret.suffix(4)))
            if secret != before { note("the webhook secret is shown only now: copy it into the receiver") }
        }
        note(settings.isOn ? "offline alerts of event \(event) are on" : "offline alerts of event \(event) are off")
    }
}
