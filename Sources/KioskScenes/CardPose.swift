import Foundation

/// Where a flat object (a printed pass, a phone) sits in front of the camera: a pinhole projection of a
/// rectangle turned in 3-D.
struct CardPose: Sendable {
    /// Where the object's centre lands in the frame, in pixels.
    var center: SIMD2<Double>
    /// Frame pixels per object pixel at the object's centre.
    var scale: Double
    /// In-plane rotation, radians.
    var roll: Double = 0
    /// Rotation about the object's horizontal axis (top edge away from the camera when positive), radians.
    var tiltX: Double = 0
    /// Rotation about the object's vertical axis, radians.
    var tiltY: Double = 0
    /// Focal length in frame pixels; shorter means stronger perspective. A webcam's is about 0.9 × width.
    var focalLength: Double = 600

    /// Maps object pixel coordinates (origin top left, `size` wide and high) to frame pixels.
    func homography(objectSize size: SIMD2<Double>) -> Homography {
        let half = size / 2
        let corners = [SIMD2(0, 0), SIMD2(size.x, 0), size, SIMD2(0, size.y)]
        let projected = corners.map { project($0 - half) }
        return Homography(mapping: corners, to: projected) ?? .identity
    }

    /// Projects a point given relative to the object's centre.
    private func project(_ point: SIMD2<Double>) -> SIMD2<Double> {
        var x = point.x * scale
        var y = point.y * scale
        var z = 0.0
        // Tilt about x, then about y, then roll in the image plane.
        (y, z) = (y * cos(tiltX) - z * sin(tiltX), y * sin(tiltX) + z * cos(tiltX))
        (x, z) = (x * cos(tiltY) + z * sin(tiltY), -x * sin(tiltY) + z * cos(tiltY))
        (x, y) = (x * cos(roll) - y * sin(roll), x * sin(roll) + y * cos(roll))
        let depth = focalLength + z
        return center + SIMD2(x, y) * (focalLength / depth)
    }
}
