import GrayImage
import SignedRecords

/// The line of facts the door shows between guests.
public struct DoorStatus: Equatable, Sendable {
    public var door: String
    public var mode: CheckInMode
    public var connection: SyncConnection
    public var pendingCheckIns: Int
    public var camera: CameraState
    /// Frames per second the door is processing, when a camera streams.
    public var fps: Double?
    /// The roster: from a CSV, downloading, or fetched at a time.
    public var roster: RosterFreshness = .local
    /// Shown on the ready screen when set: "update required", "500 pending: reconnection will be slow".
    public var warning: String?
    /// The doors this one exchanges check-ins with on the LAN now; nil when the LAN between doors is off.
    public var lanDoors: Int?

    /// "LAN: 2 doors", while the server cannot be reached and the LAN between doors runs: staff know which
    /// doors still learn each other's check-ins.
    public var lanLabel: String? {
        guard connection == .offline, let lanDoors else { return nil }
        return lanDoors == 1 ? "LAN: 1 door" : "LAN: \(lanDoors) doors"
    }

    public init(
        door: String, mode: CheckInMode, connection: SyncConnection = .standalone, pendingCheckIns: Int = 0,
        camera: CameraState = .replay, fps: Double? = nil
    ) {
        self.door = door
        self.mode = mode
        self.connection = connection
        self.pendingCheckIns = pendingCheckIns
        self.camera = camera
        self.fps = fps
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
    /// Staff pressed the undo key: the door's last check-ins, newest first, numbered from 1.
    case undo([RecentCheckIn], message: String)
}

/// A screen at the door: the framebuffer, or text for headless boxes and SSH.
public protocol StatusDisplay: AnyObject {
    func show(_ screen: DoorScreen)
    /// The live camera picture between guests, so guests can aim their phone. Called for many frames a
    /// second: must be cheap. Displays without a picture ignore it.
    func showPreview(_ frame: GrayFrame, status: DoorStatus)
}

extension StatusDisplay {
    public func showPreview(_ frame: GrayFrame, status: DoorStatus) {}
}
