import GrayImage
import KioskCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The door's screen on the Linux framebuffer: each `DoorScreen` drawn full-screen into an off-screen
/// canvas in the device's pixel format, then copied to the device in one sweep; between guests, the
/// live camera picture (`showPreview`).
///
/// Without a device (`init(width:height:layout:renderer:)`) it draws into memory only: for tests.
/// Use from one task at a time, like the device and the renderer it owns.
public final class FramebufferDisplay: StatusDisplay {
    public let renderer: ScreenRenderer
    /// The last picture drawn, in the device's format.
    public private(set) var canvas: Canvas
    public private(set) var lastScreen: DoorScreen?
    /// How many times the canvas was copied to the device (or would have been, without one).
    public private(set) var presentedCount = 0
    /// A camera frame older than this is not shown when the ready screen comes back (the camera may be gone).
    public var previewTimeout: Duration = .seconds(1)

    private var device: FramebufferDevice?
    private var scaler = GrayScaler()
    /// The ready screen as drawn, and what it was drawn for; nil when another screen is up.
    private var ready: (layout: ScreenLayout, status: DoorStatus)?
    private var latestFrame: (frame: GrayFrame, at: ContinuousClock.Instant)?

    /// Draws on `device` with `renderer`.
    public init(device: consuming FramebufferDevice, renderer: ScreenRenderer) {
        canvas = device.makeCanvas()
        self.renderer = renderer
        self.device = .some(device)
    }

    /// Opens and maps `devicePath` and loads `fonts`; fails naming the call (or font file) that failed.
    public convenience init(devicePath: String = "/dev/fb0", fonts: FontConfiguration = .dejaVu)
        throws(FramebufferError)
    {
        let renderer = try ScreenRenderer(fonts: fonts)
        self.init(device: try FramebufferDevice(path: devicePath), renderer: renderer)
    }

    /// Draws into memory only, at `width` x `height` in `layout`: the device-less display for tests.
    public init(width: Int, height: Int, layout: PixelLayout, renderer: ScreenRenderer) {
        canvas = Canvas(width: width, height: height, layout: layout)
        self.renderer = renderer
        device = nil
    }

    public func show(_ screen: DoorScreen) {
        lastScreen = screen
        if case .ready(let status) = screen {
            drawReady(status)
            if !status.camera.isDisconnected, let latest = latestFrame, latest.at.duration(to: .now) < previewTimeout,
                let ready
            {
                renderer.drawPreview(latest.frame, in: ready.layout, on: &canvas, scaler: &scaler)
            }
        } else {
            ready = nil
            renderer.render(screen, into: &canvas)
        }
        present()
    }

    /// Shows a camera frame on the ready screen, with `status` in the status line. Call it for every
    /// frame (up to 30 a second): it scales the frame straight into the canvas and copies the canvas to
    /// the device; the rest of the screen is redrawn only when the status line changes.
    ///
    /// While a verdict, confirm or manual-entry screen is up, the frame is kept (for when the ready
    /// screen returns) but not drawn.
    public func showPreview(_ frame: GrayFrame, status: DoorStatus) {
        let now = ContinuousClock.now
        latestFrame = (frame, now)
        switch lastScreen {
        case nil, .ready: break
        default: return
        }
        if ready == nil || ready?.status != status {
            lastScreen = .ready(status)
            drawReady(status)
        }
        guard let ready else { return }
        renderer.drawPreview(frame, in: ready.layout, on: &canvas, scaler: &scaler)
        present()
    }

    /// The ready screen without a picture; only the status bar when just the status line changed.
    private func drawReady(_ status: DoorStatus) {
        let layout = renderer.layout(.ready(status), width: canvas.width, height: canvas.height)
        if let ready, ready.status.camera == status.camera, let bar = layout.statusBar {
            renderer.drawStatusBar(bar, on: &canvas)
        } else {
            renderer.draw(layout, on: &canvas)
        }
        ready = (layout, status)
    }

    private func present() {
        presentedCount += 1
        device?.present(canvas)
    }
}
