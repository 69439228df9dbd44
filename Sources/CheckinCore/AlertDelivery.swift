import Foundation
import PassFormat

/// One alert to one place (an e-mail address or a webhook URL) about one device going offline or coming back:
/// queued in the same transaction as the episode, sent by the watch service, retried on a transient failure.
public struct AlertDelivery: Equatable, Sendable {
    public enum Kind: String, Sendable, CaseIterable {
        case offline
        case backOnline = "back_online"

        /// The webhook's `type`.
        public var eventType: String { self == .offline ? "device.offline" : "device.back_online" }
    }

    public enum Channel: String, Sendable, CaseIterable {
        case email, webhook
    }

    public enum State: String, Sendable, CaseIterable {
        case pending, sent, failed
    }

    /// A transient failure is tried again this many times in all, then the alert is `failed` (an alert hours
    /// late is no alert).
    public static let maximumAttempts = 6

    /// Random; the webhook's `webhook-id` and the e-mail's Message-ID, the same on every attempt.
    public var id: String
    public var event: EventID
    public var device: String
    public var door: String
    public var kind: Kind
    public var channel: Channel
    /// The address or the URL, as set when the alert was queued.
    public var target: String
    /// The device's last contact before the silence (the episode's key).
    public var lastSeenAt: Date
    public var state: State
    public var attempts: Int
    public var nextAttemptAt: Date
    public var lastError: String?
    public var createdAt: Date
    public var sentAt: Date?

    public init(
        id: String, event: EventID, device: String, door: String, kind: Kind, channel: Channel, target: String,
        lastSeenAt: Date, state: State = .pending, attempts: Int = 0, nextAttemptAt: Date, lastError: String? = nil,
        createdAt: Date, sentAt: Date? = nil
    ) {
        self.id = id
        self.event = event
        self.device = device
        self.door = door
        self.kind = kind
        self.channel = channel
        self.target = target
        self.lastSeenAt = lastSeenAt
        self.state = state
        self.attempts = attempts
        self.nextAttemptAt = nextAttemptAt
        self.lastError = lastError
        self.createdAt = createdAt
        self.sentAt = sentAt
    }

    /// 128 random bits in base32, prefixed.
    public static func newID() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return "alert_" + Base32.encode(bytes).lowercased()
    }

    public func messageID(domain: String) -> String { "<\(id)@\(domain)>" }

    /// The delivery after one attempt: sent, retried after `IssuanceBackoff`'s delay, or failed.
    public func after(_ result: AlertDeliveryResult, now: Date) -> AlertDelivery {
        var next = self
        next.attempts += 1
        switch result {
        case .sent:
            next.state = .sent
            next.sentAt = now
            next.lastError = nil
        case .retry(let error):
            next.lastError = error
            if next.attempts >= Self.maximumAttempts {
                next.state = .failed
            } else {
                next.nextAttemptAt = now.addingTimeInterval(IssuanceBackoff.delay(afterAttempt: next.attempts))
            }
        case .fail(let error):
            next.lastError = error
            next.state = .failed
        }
        return next
    }
}

/// What one attempt at an alert gave.
public enum AlertDeliveryResult: Equatable, Sendable {
    case sent
    /// Try again later (a 4xx from the relay, a receiver that did not answer or answered other than 2xx).
    case retry(error: String)
    /// Never (the relay refused the address, the alerts were turned off meanwhile).
    case fail(error: String)
}
