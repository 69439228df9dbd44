import KioskCore

/// A code an engine read, and where: its payload and the corners of the symbol in the image's pixels.
public struct Sighting: Equatable, Sendable {
    public var payload: [UInt8]
    /// The symbol's corners (zbar may give more points), in the pixels of the image the engine was given.
    public var corners: [SIMD2<Double>]
    /// The payload as text, where the engine renders it (zxing-cpp: the code's ECI or guessed character set,
    /// Shift JIS for instance, converted to UTF-8).
    public var text: String?

    public init(payload: [UInt8], corners: [SIMD2<Double>], text: String? = nil) {
        self.payload = payload
        self.corners = corners
        self.text = text
    }

    /// The same sighting in an image `factor` times larger (a pass on a half-size image, seen on the frame).
    func scaled(by factor: Double) -> Sighting {
        factor == 1 ? self : Sighting(payload: payload, corners: corners.map { $0 * factor }, text: text)
    }

    /// The mean of its corners (the origin where there are none).
    public var centre: SIMD2<Double> { corners.centroid ?? .zero }

    /// Whether `other` is this code seen again (by another pass, or another engine): the same payload, and one's
    /// centre within the other's box (`covers`). One payload at two places is two codes (a pass printed twice on a
    /// sheet, two guests' copies of one ticket).
    public func isSameCode(as other: Sighting) -> Bool {
        payload == other.payload && (covers(other.centre) || other.covers(centre))
    }

    /// Whether `point` lies within the symbol's bounding box, grown by a fifth of its size on each side (the
    /// finder patterns sit at the corners; the box of a turned symbol holds some of its surroundings too).
    public func covers(_ point: SIMD2<Double>) -> Bool {
        guard let first = corners.first else { return false }
        var low = first
        var high = first
        for corner in corners {
            low = pointwiseMin(low, corner)
            high = pointwiseMax(high, corner)
        }
        let margin = (high - low) / 5 + 2
        return point.x >= low.x - margin.x && point.x <= high.x + margin.x && point.y >= low.y - margin.y
            && point.y <= high.y + margin.y
    }
}
