/// The line of facts the door shows between guests.
public struct DoorStatus: Equatable, Sendable {
    public var door: String
    public var mode: CheckInMode
    public var online: Bool
    public var pendingCheckIns: Int
    /// "streaming 640x480 GREY", "Camera disconnected", "replay"...
    public var camera: String
    /// Frames per second the door is processing, when a camera streams.
    public var fps: Double?
    /// How old the roster is ("synced 4 min ago"), when known.
    public var rosterAge: String?

    public init(door: String, mode: CheckInMode, online: Bool = false, pendingCheckIns: Int = 0, camera: String = "replay",
                fps: Double? = nil, rosterAge: String? = nil) {
        self.door = door
        self.mode = mode
        self.online = online
        self.pendingCheckIns = pendingCheckIns
        self.camera = camera
        self.fps = fps
        self.rosterAge = rosterAge
    }

    /// Whether the camera is gone (the screen says so; manual entry keeps working).
    public var cameraDisconnected: Bool { camera.hasPrefix("Camera disconnected") }
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
    /// The live camera picture between guests, so guests can aim their phone. Called for many frames a
    /// second: must be cheap. Displays without a picture ignore it.
    func showPreview(_ frame: GrayFrame, status: DoorStatus)
}

extension StatusDisplay {
    public func showPreview(_ frame: GrayFrame, status: DoorStatus) {}
}
