import struct Foundation.Date

/// Which way a door lets a guest through.
public enum Direction: String, Sendable, Codable, CaseIterable {
    case entry
    case exit
}

/// A guest's recorded passage through a door of one check-in list: an entry or an exit, at a time (the scan's
/// corrected time, as the door and the server both hold it).
public struct Passage: Sendable, Equatable, Codable {
    public var direction: Direction
    public var at: Date

    public init(_ direction: Direction, at: Date) {
        self.direction = direction
        self.at = at
    }
}
