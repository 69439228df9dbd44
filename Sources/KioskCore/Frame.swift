import GrayImage

import struct Foundation.Date

/// One frame from the camera (or a replayed image) and when it was taken.
public struct Frame: Sendable {
    public var image: GrayFrame
    public var time: Date
    /// Where it came from: a file name in replay, nil from a camera.
    public var label: String?

    public init(image: GrayFrame, time: Date, label: String? = nil) {
        self.image = image
        self.time = time
        self.label = label
    }
}
