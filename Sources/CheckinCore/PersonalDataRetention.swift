import Foundation
import PassFormat

/// How long the server keeps an event's personal data after the event ends (`serve --retention-days`, 30 by
/// default). Past it, guests' names, e-mail addresses, phones, notes, arrival alerts and external references,
/// and their passes (the signed text, the image, the recipient, the mail errors), are removed; the guest ids,
/// check-ins, counts and the audit of who did what stay.
public struct PersonalDataRetention: Equatable, Sendable {
    public var days: Int

    public static let defaultDays = 30

    public init(days: Int = defaultDays) { self.days = days }

    /// When the event's personal data is purged.
    public func purgeDate(of event: Event) -> Date { event.endsAt.addingTimeInterval(Double(days) * 86_400) }

    /// The latest end of an event whose data is due for purging at `now`.
    public func endedBefore(_ now: Date) -> Date { now.addingTimeInterval(-Double(days) * 86_400) }
}

/// What a purge removed.
public struct PersonalDataPurge: Equatable, Sendable {
    public var event: EventID
    /// Guests whose personal fields were cleared.
    public var guests: Int
    /// Pass issuances whose pass, image and recipient were cleared.
    public var passes: Int
    /// The pass images' file names (`PassImageStore`), which the caller deletes from the pass folder.
    public var passImages: [String]

    public init(event: EventID, guests: Int, passes: Int, passImages: [String]) {
        self.event = event
        self.guests = guests
        self.passes = passes
        self.passImages = passImages
    }
}
