import GrayImage

/// Tells whether the scene in front of the camera moves: the mean absolute grey-level change between
/// this frame and the last, on a sparse grid (every `step`-th pixel of every `step`-th row). At 640x480 with
/// step 8 that is 4,800 samples: a few microseconds.
public struct MotionDetector: Sendable {
    public let step: Int
    private var previous: [UInt8] = []
    private var current: [UInt8] = []
    private var previousSize = (0, 0)

    public init(step: Int = 8) {
        precondition(step >= 1)
        self.step = step
    }

    /// The mean absolute change (0-255) since the previous frame; 0 for the first frame or a new size.
    /// Runs on every captured frame: it reuses its sample buffers and allocates only when the size changes.
    public mutating func measure(_ frame: GrayFrame) -> Double {
        let columns = (frame.width + step - 1) / step
        let rows = (frame.height + step - 1) / step
        let sameSize = previousSize == (frame.width, frame.height) && previous.count == columns * rows
        if current.count != columns * rows { current = [UInt8](repeating: 0, count: columns * rows) }
        var total = 0
        let step = self.step
        frame.pixels.withUnsafeBufferPointer { px in
            current.withUnsafeMutableBufferPointer { out in
                previous.withUnsafeBufferPointer { old in
                    var i = 0
                    var y = 0
                    while y < frame.height {
                        let row = y * frame.width
                        var x = 0
                        while x < frame.width {
                            let v = px[row + x]
                            out[i] = v
                            if sameSize { total &+= abs(Int(v) - Int(old[i])) }
                            i += 1
                            x += step
                        }
                        y += step
                    }
                }
            }
        }
        swap(&previous, &current)
        previousSize = (frame.width, frame.height)
        return sameSize && !previous.isEmpty ? Double(total) / Double(previous.count) : 0
    }
}
