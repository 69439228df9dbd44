import AsyncHTTPClient
import CheckinAdmin
import CheckinCore
import CheckinWebhooks
import Foundation
import NIOCore
import NIOHTTP1

/// Sends one alert: an e-mail through the relay, or a webhook signed as Standard Webhooks says (`webhook-id`
/// the delivery's id, the same on every retry, so the receiver can drop a second copy).
public struct OfflineAlertSender: Sendable {
    public let repository: any CheckinRepository
    public let mailer: (any Mailer)?
    /// The organizer pages' address: the alert links to `<publicURL>/events/<id>/monitor`.
    public let address: PublicAddress
    public var publicURL: String { address.value }
    public let timeZone: TimeZone
    /// How long a webhook receiver may take to answer.
    public let webhookTimeout: TimeAmount
    /// `--allow-private-webhooks`: receivers on loopback, private or link-local addresses are allowed.
    public let allowPrivateWebhooks: Bool

    public init(
        repository: any CheckinRepository, mailer: (any Mailer)?, publicURL: String, timeZone: TimeZone = .current,
        webhookTimeout: TimeAmount = .seconds(10), allowPrivateWebhooks: Bool = false
    ) {
        self.init(
            repository: repository, mailer: mailer, address: PublicAddress(publicURL), timeZone: timeZone,
            webhookTimeout: webhookTimeout, allowPrivateWebhooks: allowPrivateWebhooks)
    }

    public init(
        repository: any CheckinRepository, mailer: (any Mailer)?, address: PublicAddress,
        timeZone: TimeZone = .current, webhookTimeout: TimeAmount = .seconds(10), allowPrivateWebhooks: Bool = false
    ) {
        self.repository = repository
        self.mailer = mailer
        self.address = address
        self.timeZone = timeZone
        self.webhookTimeout = webhookTimeout
        self.allowPrivateWebhooks = allowPrivateWebhooks
    }

    public func send(_ delivery: AlertDelivery, now: Date) async -> AlertDeliveryResult {
        do {
            guard let event = try await repository.event(delivery.event) else {
                return .fail(error: "the event no longer exists")
            }
            let message = OfflineAlertMessage(
                delivery: delivery, event: event, monitorURL: "\(publicURL)/events/\(event.id.rawValue)/monitor",
                timeZone: event.zone(or: timeZone))
            // Alerts the organizer turned off since this one was queued are not sent.
            let settings = try await repository.offlineAlerts(event: event.id)
            switch delivery.channel {
            case .email:
                guard settings.email != nil else { return .fail(error: "the event's e-mail alerts were turned off") }
                return await email(message)
            case .webhook:
                guard settings.webhookURL != nil, let secret = settings.webhookSecret else {
                    return .fail(error: "the event's webhook alerts were turned off")
                }
                return await webhook(message, secret: secret, now: now)
            }
        } catch {
            return .retry(error: "\(error)")
        }
    }

    func email(_ message: OfflineAlertMessage) async -> AlertDeliveryResult {
        guard let mailer else { return .fail(error: MailFailure.notConfigured.description) }
        do {
            try await mailer.send(message.email(domain: URL(string: publicURL)?.host ?? "checkin.invalid"))
            return .sent
        } catch MailFailure.permanent(let why) {
            return .fail(error: MailFailure.permanent(why).description)
        } catch {
            return .retry(error: "\(error)")
        }
    }

    func webhook(_ message: OfflineAlertMessage, secret secretText: String, now: Date) async -> AlertDeliveryResult {
        guard let secret = try? WebhookSecretKey(secretText) else {
            return .fail(error: "the event's webhook secret is not a whsec_ secret: set the webhook URL again")
        }
        let timestamp = Int64(now.timeIntervalSince1970.rounded(.down))
        let body: [UInt8]
        do { body = try message.webhookBody(timestamp: Date(timeIntervalSince1970: Double(timestamp))) } catch {
            return .fail(error: "cannot encode the alert: \(error)")
        }
        // Resolved and checked now (the address may have changed since the URL was saved), then connected to
        // the address checked, not to whatever a second look-up would answer.
        let checked: WebhookDestination?
        do {
            checked = try await WebhookDestination.check(
                url: message.delivery.target, allowPrivate: allowPrivateWebhooks)
        } catch {
            return .fail(error: error.description)
        }
        guard let destination = checked else {
            return .retry(error: "the webhook receiver's name has no address (DNS)")
        }
        var request = HTTPClientRequest(url: message.delivery.target)
        request.method = .POST
        request.headers.add(name: "content-type", value: "application/json")
        request.headers.add(name: "user-agent", value: "checkin-server")
        request.headers.add(name: "webhook-id", value: message.delivery.id)
        request.headers.add(name: "webhook-timestamp", value: String(timestamp))
        request.headers.add(
            name: "webhook-signature",
            value: StandardWebhook.sign(id: message.delivery.id, timestamp: timestamp, body: body, secret: secret))
        request.body = .bytes(ByteBuffer(bytes: body))
        // A client per attempt (alerts are rare): no redirects followed, so the URL the organizer gave is the
        // only place the alert goes.
        var configuration = HTTPClient.Configuration(redirectConfiguration: .disallow)
        configuration.timeout = .init(connect: webhookTimeout, read: webhookTimeout)
        configuration.dnsOverride = [destination.host: destination.address]
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        let result: AlertDeliveryResult
        do {
            let response = try await client.execute(request, timeout: webhookTimeout)
            _ = try? await response.body.collect(upTo: 64 * 1024)
            result =
                (200..<300).contains(response.status.code)
                ? .sent : .retry(error: "the webhook receiver answered \(response.status.code)")
        } catch {
            // Not what the address answered (refused, reset, TLS...): that would make the devices page a port
            // scanner.
            result = .retry(error: "the webhook receiver could not be reached, or did not answer in time")
        }
        try? await client.shutdown()
        return result
    }
}
