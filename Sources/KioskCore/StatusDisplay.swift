/// The line of facts the door shows between guests.
public struct DoorStatus: Equatable, Sendable {
    public var door: String
    public var mode: CheckInMode
    public var online: Bool
    public var pendingCheckIns: Int
    public var camera: String

    public init(door: String, mode: CheckInMode, online: Bool = false, pendingCheckIns: Int = 0, camera: String = "replay") {
        self.door = door
        self.mode = mode
        self.online = online
        self.pendingCheckIns = pendingCheckIns
        self.camera = camera
    }
}

/// What the screen shows.
public enum DoorScreen: Equatable, Sendable {
    /// Waiting for the next guest.
    case ready(DoorStatus)
    case verdict(ScanResult, DoorStatus)
    /// Staff are typing a code or a name; `matches` lists the roster hits, numbered from 1.
    case manualEntry(query: String, matches: [RosterGuest], message: String?)
    /// Confirm mode: a guest waits for Enter; `arrived` is what staff typed so far.
    case confirm(GuestSummary, arrived: String)
}

/// A screen at the door: the framebuffer, or text for headless boxes and SSH.
public protocol StatusDisplay: AnyObject {
    func show(_ screen: DoorScreen)
}
