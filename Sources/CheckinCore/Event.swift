import Foundation
import PassFormat

/// An event of a tenant, as the server keeps it.
public struct Event: Equatable, Sendable {
    public var id: EventID
    public var tenant: TenantID
    public var name: String
    public var venue: String?
    /// Who door staff call.
    public var opsContact: String?
    public var startsAt: Date
    public var endsAt: Date
    /// Minutes after `endsAt` during which scans are still taken.
    public var graceMinutes: Int
    /// Kiosks older than this get `426` on the roster endpoints (uploads are still accepted).
    public var minimumKioskVersion: KioskVersion?
    /// The IANA time zone of the venue ("Europe/Berlin"): every time of the event is shown in it. `nil` for an
    /// event made before events had one: its times are shown in the server's zone.
    public var timeZone: String?

    public init(
        id: EventID, tenant: TenantID, name: String, venue: String? = nil, opsContact: String? = nil,
        startsAt: Date, endsAt: Date, graceMinutes: Int = 60, minimumKioskVersion: KioskVersion? = nil,
        timeZone: String? = nil
    ) {
        self.id = id
        self.tenant = tenant
        self.name = name
        self.venue = venue
        self.opsContact = opsContact
        self.startsAt = startsAt
        self.endsAt = endsAt
        self.graceMinutes = graceMinutes
        self.minimumKioskVersion = minimumKioskVersion
        self.timeZone = timeZone
    }

    /// The zone the event's times are shown in: its own, or `fallback` (the server's) when it has none or the
    /// system no longer knows it.
    public func zone(or fallback: TimeZone) -> TimeZone {
        timeZone.flatMap(TimeZone.init(identifier:)) ?? fallback
    }

    /// The last moment a check-in is taken: the end plus the grace.
    public var closesAt: Date { endsAt.addingTimeInterval(Double(graceMinutes) * 60) }
}

/// What an organizer gives to create an event (the server assigns the id).
public struct NewEvent: Equatable, Sendable {
    public var name: String
    public var venue: String?
    public var opsContact: String?
    public var startsAt: Date
    public var endsAt: Date
    public var graceMinutes: Int
    public var minimumKioskVersion: KioskVersion?
    /// The IANA time zone of the venue.
    public var timeZone: String?

    public init(
        name: String, venue: String? = nil, opsContact: String? = nil, startsAt: Date, endsAt: Date,
        graceMinutes: Int = 60, minimumKioskVersion: KioskVersion? = nil, timeZone: String? = nil
    ) {
        self.name = name
        self.venue = venue
        self.opsContact = opsContact
        self.startsAt = startsAt
        self.endsAt = endsAt
        self.graceMinutes = graceMinutes
        self.minimumKioskVersion = minimumKioskVersion
        self.timeZone = timeZone
    }
}
