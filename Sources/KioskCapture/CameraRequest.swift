/// What the kiosk asks of its camera. The driver may give a different size or rate; `V4L2Camera.format` and
/// `V4L2Camera.frameRate` report what it actually gave.
public struct CameraRequest: Sendable, Equatable {
    /// The V4L2 device node, for example `/dev/video0` or a stable `/dev/v4l/by-id/...` link.
    public var devicePath: String
    /// Requested frame width in pixels; a modest size keeps decoding fast.
    public var width: Int
    /// Requested frame height in pixels.
    public var height: Int
    /// Requested frames per second; nil leaves the driver's rate alone.
    public var framesPerSecond: Double?
    /// Pixel formats to consider, best first, as four-character codes ("YUYV", "GREY", "YU12", "RGB3"); nil
    /// chooses automatically the one cheapest to turn into grey. For a camera whose preferred format is broken,
    /// and for tests.
    public var pixelFormats: [String]?

    public init(
        devicePath: String = "/dev/video0", width: Int = 640, height: Int = 480, framesPerSecond: Double? = nil,
        pixelFormats: [String]? = nil
    ) {
        self.devicePath = devicePath
        self.width = width
        self.height = height
        self.framesPerSecond = framesPerSecond
        self.pixelFormats = pixelFormats
    }
}
