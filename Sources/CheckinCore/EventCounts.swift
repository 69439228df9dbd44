import Foundation

/// The dashboard's headline numbers: who is expected and who has come.
public struct EventCounts: Equatable, Sendable {
    /// Active guests (registrations), and the people they stand for (party sizes).
    public var guests: Int
    public var expectedPeople: Int
    /// Guests checked in, and the people who came with them (`arrived`).
    public var checkedIn: Int
    public var arrivedPeople: Int
    public var cancelled: Int

    public init(guests: Int, expectedPeople: Int, checkedIn: Int, arrivedPeople: Int, cancelled: Int) {
        self.guests = guests
        self.expectedPeople = expectedPeople
        self.checkedIn = checkedIn
        self.arrivedPeople = arrivedPeople
        self.cancelled = cancelled
    }
}

/// One check-in as the arrivals chart counts it.
public struct DoorTime: Equatable, Sendable {
    public var door: String
    public var at: Date

    public init(door: String, at: Date) {
        self.door = door
        self.at = at
    }
}
