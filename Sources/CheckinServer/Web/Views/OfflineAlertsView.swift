import CheckinCore
import Foundation

/// The devices page's "Offline alerts" card: where they go, the webhook secret, and the latest alerts sent.
struct OfflineAlertsView {
    struct Row {
        var time: String
        var door: String
        var what: String
        var to: String
        var state: String
        var failed: Bool
        var error: String?
    }

    var email: String
    var webhookURL: String
    /// The webhook secret in full: only on the answer that made it.
    var secret: String?
    /// Afterwards only its last 4 characters, to tell which secret the receiver should hold.
    var secretEnding: String?
    var problem: String?
    /// Set when alerts go to an e-mail address and this server has no mail relay: they would all fail.
    var mailWarning: String?
    var on: Bool
    var rows: [Row]
    var hasRows: Bool

    /// `typed`: what the organizer sent, shown again beside `problem` when it was refused. `secretMadeNow`: the
    /// answer to the form that made the secret, the one time it is shown whole.
    init(
        settings: OfflineAlertSettings, deliveries: [AlertDelivery], typed: (email: String, url: String)?,
        problem: String?, now: Date, timeZone: TimeZone, secretMadeNow: Bool = false, mailConfigured: Bool = true
    ) {
        let time = TimeText(now: now, timeZone: timeZone)
        email = typed?.email ?? settings.email ?? ""
        webhookURL = typed?.url ?? settings.webhookURL ?? ""
        let current = settings.webhookURL == nil ? nil : settings.webhookSecret
        secret = secretMadeNow ? current : nil
        secretEnding = secretMadeNow ? nil : current.map { "…" + $0.suffix(4) }
        self.problem = problem
        if !mailConfigured, !(settings.email ?? "").isEmpty {
            mailWarning =
                "This server has no mail relay, so e-mail alerts cannot be sent: add a webhook, or ask the server's "
                + "operator to start it with --smtp-url."
        }
        on = settings.isOn
        rows = deliveries.map { delivery in
            Row(
                time: time.relative(delivery.createdAt), door: delivery.door,
                what: delivery.kind == .offline ? "offline" : "back online",
                to: delivery.channel == .email ? delivery.target : "webhook",
                state: delivery.state == .pending && delivery.attempts > 0
                    ? "retrying (\(delivery.attempts) attempts)" : delivery.state.rawValue,
                failed: delivery.state == .failed, error: delivery.lastError)
        }
        hasRows = !rows.isEmpty
    }
}
