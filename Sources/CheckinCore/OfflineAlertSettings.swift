import Foundation

/// Where an event's offline alerts go, as the organizer set them on the devices page: an e-mail address, a
/// webhook URL, both, or neither (off).
public struct OfflineAlertSettings: Equatable, Sendable {
    public var email: String?
    public var webhookURL: String?
    /// The Standard Webhooks secret (`whsec_...`) the server signs this event's alert webhooks with; made when a
    /// URL is first set, kept while the URL changes.
    public var webhookSecret: String?

    public init(email: String? = nil, webhookURL: String? = nil, webhookSecret: String? = nil) {
        self.email = email
        self.webhookURL = webhookURL
        self.webhookSecret = webhookSecret
    }

    public var isOn: Bool { email != nil || webhookURL != nil }

    /// One delivery per channel set, for one change of one device.
    public func deliveries(for episode: OfflineEpisode, kind: AlertDelivery.Kind, at time: Date) -> [AlertDelivery] {
        var targets: [(AlertDelivery.Channel, String)] = []
        if let email { targets.append((.email, email)) }
        if let webhookURL, webhookSecret != nil { targets.append((.webhook, webhookURL)) }
        return targets.map { channel, target in
            AlertDelivery(
                id: AlertDelivery.newID(), event: episode.event, device: episode.device, door: episode.door,
                kind: kind, channel: channel, target: target, lastSeenAt: episode.lastSeenAt, nextAttemptAt: time,
                createdAt: time)
        }
    }
}

/// Why the organizer's alert settings were refused.
public enum OfflineAlertSettingsError: Error, Equatable, Sendable, CustomStringConvertible {
    case badEmail(String)
    case badWebhookURL(String, why: String)

    public var description: String {
        switch self {
        case .badEmail(let text):
            "\"\(text)\" is not an e-mail address: give one like ops@example.org, or leave it empty"
        case .badWebhookURL(let text, let why): "the webhook URL \"\(text)\" cannot be used: \(why)"
        }
    }
}

extension OfflineAlertSettings {
    /// The settings from the organizer's form: empty fields are off. A webhook URL must be https (plain http
    /// only when `allowPlainHTTP`, for a receiver on the server's own network), with a host and no user or
    /// password in it.
    public static func parse(email: String, webhookURL: String, allowPlainHTTP: Bool) throws(OfflineAlertSettingsError)
        -> OfflineAlertSettings
    {
        let email = email.trimmingCharacters(in: .whitespacesAndNewlines)
        let url = webhookURL.trimmingCharacters(in: .whitespacesAndNewlines)
        var settings = OfflineAlertSettings()
        if !email.isEmpty {
            guard EmailAddress.isPlausible(email) else { throw .badEmail(email) }
            settings.email = email
        }
        if !url.isEmpty {
            guard url.count <= 2000, let parsed = URLComponents(string: url), let scheme = parsed.scheme?.lowercased()
            else { throw .badWebhookURL(url, why: "it is not a URL") }
            guard scheme == "https" || (scheme == "http" && allowPlainHTTP) else {
                throw .badWebhookURL(
                    url,
                    why: allowPlainHTTP
                        ? "give an http or https URL" : "give an https URL (this server sends alerts over TLS only)")
            }
            guard let host = parsed.host, !host.isEmpty else { throw .badWebhookURL(url, why: "it has no host") }
            guard parsed.user == nil, parsed.password == nil else {
                throw .badWebhookURL(url, why: "put no user or password in it; the signature proves the sender")
            }
            settings.webhookURL = url
        }
        return settings
    }
}
