/// What the door's frame source is doing, for the status line and the ready screen.
public enum CameraState: Equatable, Sendable {
    /// The camera at this device path is being opened.
    case opening(String)
    /// Frames arrive; the format ("640x480 YUYV").
    case streaming(String)
    /// The camera is gone (unplugged, refused); why. Manual entry keeps working; the kiosk retries.
    case disconnected(String)
    /// Frames come from a folder of images.
    case replay

    /// The words on the status line.
    public var label: String {
        switch self {
        case .opening(let device): "opening \(device)"
        case .streaming(let format): format.isEmpty ? "streaming" : "streaming \(format)"
        case .disconnected: "Camera disconnected"
        case .replay: "replay"
        }
    }

    public var isDisconnected: Bool {
        if case .disconnected = self { return true }
        return false
    }
}
