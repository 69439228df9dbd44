import struct Foundation.Date

/// An event as kiosks and admin tools see it.
public struct EventInfo: Codable, Equatable, Sendable {
    public var id: UInt32
    public var tenantId: UInt32
    public var name: String
    public var venue: String?
    /// Who door staff call (the sync monitor's empty state shows it).
    public var opsContact: String?
    public var startsAt: Date
    public var endsAt: Date
    public var graceMinutes: Int
    public var minimumKioskVersion: String?
    /// The IANA time zone of the venue ("Europe/Berlin").
    public var timeZone: String?

    public init(
        id: UInt32, tenantId: UInt32, name: String, venue: String? = nil, opsContact: String? = nil,
        startsAt: Date, endsAt: Date, graceMinutes: Int = 60, minimumKioskVersion: String? = nil,
        timeZone: String? = nil
    ) {
        self.id = id
        self.tenantId = tenantId
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
