import Foundation
import GrayImage
import KioskCore
import Synchronization

/// What the door loop tells the capture thread: the frame rate it wants, the camera it wants, stop.
public final class CaptureControl: Sendable {
    struct State {
        var targetFPS: Double
        var device: String
        var width: Int
        var height: Int
        var stopped = false
    }

    private let state: Mutex<State>

    public init(device: String, width: Int, height: Int, fps: Double) {
        state = Mutex(State(targetFPS: fps, device: device, width: width, height: height))
    }

    public var targetFPS: Double {
        get { state.withLock { $0.targetFPS } }
        set { state.withLock { $0.targetFPS = newValue } }
    }

    var snapshot: State { state.withLock { $0 } }

    /// A changed device or size makes the capture thread reopen the camera.
    public func request(device: String, width: Int, height: Int) {
        state.withLock {
            $0.device = device
            $0.width = width
            $0.height = height
        }
    }

    public func stop() { state.withLock { $0.stopped = true } }
    public var isStopped: Bool { state.withLock { $0.stopped } }
}

/// A frame from the capture thread, with the motion measured against the frame before it.
public struct CapturedFrame: Sendable {
    public var image: GrayFrame
    public var time: Date
    public var motion: Double
    public var label: String?
}

/// What the camera is doing, for the status line and the screen.
public enum CameraEvent: Sendable, Equatable {
    case streaming(String)
    case disconnected(String)
}
