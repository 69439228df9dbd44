import Foundation
import PassFormat

/// Where a guest's pass stands on its way to the guest: sign -> render -> store -> email, each step's result
/// persisted before the next starts.
public enum IssuanceStep: String, Sendable, Codable, CaseIterable {
    case sign, render, store, email
    /// Every step done (the email sent, or no address to send it to).
    case done
    /// The guest was cancelled, or a newer issuance replaced this one: nothing more is sent.
    case cancelled
    /// A step failed for good (a 5xx answer, or too many attempts): shown to the organizer, who may retry it.
    case failed

    /// The steps a worker still runs.
    public static let pending: [IssuanceStep] = [.sign, .render, .store, .email]

    public var isPending: Bool { Self.pending.contains(self) }
}

/// One run of the pass workflow for one guest and one address. A changed address is a new issuance.
public struct PassIssuance: Equatable, Sendable {
    /// Random, never sequential; goes into the email's Message-ID.
    public var id: String
    public var tenant: TenantID
    public var event: EventID
    public var guest: GuestID
    /// The address the pass goes to; nil for a guest with a phone only (the pass is made and stored, not sent).
    public var recipient: String?
    public var step: IssuanceStep
    /// The step that failed, while `step` is `failed`.
    public var failedStep: IssuanceStep?
    /// Attempts of the current step so far.
    public var attempts: Int
    public var nextAttemptAt: Date
    public var lastError: String?
    /// The signed pass's text (base32), once signed.
    public var pass: String?
    /// The QR code's PNG, once rendered.
    public var image: [UInt8]?
    /// The stored image's file name (derived from the pass, never from an id), once stored.
    public var storedName: String?
    public var sentAt: Date?
    public var createdAt: Date
    public var updatedAt: Date

    public init(
        id: String, tenant: TenantID, event: EventID, guest: GuestID, recipient: String?, step: IssuanceStep = .sign,
        failedStep: IssuanceStep? = nil, attempts: Int = 0, nextAttemptAt: Date, lastError: String? = nil,
        pass: String? = nil, image: [UInt8]? = nil, storedName: String? = nil, sentAt: Date? = nil,
        createdAt: Date, updatedAt: Date
    ) {
        self.id = id
        self.tenant = tenant
        self.event = event
        self.guest = guest
        self.recipient = recipient
        self.step = step
        self.failedStep = failedStep
        self.attempts = attempts
        self.nextAttemptAt = nextAttemptAt
        self.lastError = lastError
        self.pass = pass
        self.image = image
        self.storedName = storedName
        self.sentAt = sentAt
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// The email's Message-ID: the same for every attempt of this issuance's email step, so a relay that got
    /// the message twice (a crash between its acceptance and the step's commit) can tell.
    public func messageID(domain: String) -> String { "<pass-\(id)-email@\(domain)>" }

    /// A new issuance id: 128 random bits in base32.
    public static func newID() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return Base32.encode(bytes).lowercased()
    }
}

/// What running one step gave: its result (the repository stores it and moves the issuance on), or why not.
public enum IssuanceStepResult: Equatable, Sendable {
    case signed(pass: String)
    case rendered(png: [UInt8])
    case stored(name: String)
    case sent(at: Date)
    /// No address: the workflow ends after the store step.
    case nothingToSend
    /// The guest was cancelled (or is gone) meanwhile: the issuance ends, nothing is sent.
    case cancelled(reason: String)
    /// Try the same step again later (a 4xx answer, a relay that did not answer, a full disk), after the
    /// `IssuanceBackoff` delay; after too many attempts the issuance fails.
    case retry(error: String)
    /// The step failed for good (a 5xx answer): shown to the organizer.
    case fail(error: String)
}

/// The retry schedule of a step: 30 s, then doubling, at most an hour apart; after `maximumAttempts` the
/// issuance fails and waits for the organizer.
public enum IssuanceBackoff {
    public static let maximumAttempts = 10

    public static func delay(afterAttempt attempt: Int) -> TimeInterval {
        min(3600, 30 * pow(2, Double(max(0, attempt - 1))))
    }
}
