import CheckinCore
import CheckinWebhooks
import Foundation

extension CheckinAdmin {
    /// Sets where the event's offline alerts go (empty fields: off), audited. A webhook URL gets the event's
    /// signing secret the first time; the secret stays when the URL changes. `allowPlainHTTP`: the server's
    /// `--allow-http-webhooks`. A webhook whose host is `localhost` or resolves to an internal address (loopback,
    /// private, link-local, CGNAT...) is refused unless `allowPrivate` (`--allow-private-webhooks`).
    public func setOfflineAlerts(
        event: Event, email: String, webhookURL: String, allowPlainHTTP: Bool, allowPrivate: Bool = false
    ) async throws -> OfflineAlertSettings {
        var settings: OfflineAlertSettings
        do {
            settings = try OfflineAlertSettings.parse(
                email: email, webhookURL: webhookURL, allowPlainHTTP: allowPlainHTTP)
        } catch {
            throw Failure.invalid(error.description)
        }
        if let url = settings.webhookURL {
            do {
                _ = try await WebhookDestination.check(url: url, allowPrivate: allowPrivate)
            } catch {
                throw Failure.invalid(error.description)
            }
        }
        let current = try await repository.offlineAlerts(event: event.id)
        settings.webhookSecret =
            current.webhookSecret ?? (settings.webhookURL == nil ? nil : WebhookSecretKey.generate())
        try await repository.setOfflineAlerts(settings, event: event.id, at: clock.now())
        let channels = [settings.email.map { "e-mail \($0)" }, settings.webhookURL.map { "webhook \($0)" }]
            .compactMap { $0 }
        try await audit(
            event.tenant, "offline_alerts_set",
            "event \(event.id): " + (channels.isEmpty ? "off" : channels.joined(separator: ", ")))
        return settings
    }
}
