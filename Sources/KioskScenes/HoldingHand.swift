/// The hand holding a pass up to the camera: palm and arm behind it, thumb and fingertips over its edges.
/// Positions are fractions of the held object's width and height, mapped through the object's pose, so the hand
/// turns and tilts with it.
struct HoldingHand: Sendable {
    var skin: Float
    var sleeve: Float
    /// Which side the thumb comes from (the fingers wrap the other side).
    var thumbOnLeft: Bool

    init(using rng: inout some RandomNumberGenerator) {
        skin = Float(rng.uniform(95, 185))
        sleeve = Float(rng.uniform(20, 120))
        thumbOnLeft = rng.coinFlip()
    }

    /// Palm and forearm, painted before the object.
    func paintBehind(into canvas: inout SceneImage, through mapping: Homography, objectSize: SIMD2<Double>) {
        let place = placer(mapping, objectSize)
        let unit = mapping.localScale(at: objectSize / 2) * objectSize.x
        let side: Double = thumbOnLeft ? 1 : -1
        canvas.fillCapsule(
            from: place(0.5 + 0.2 * side, 1.0), to: place(0.5 + 0.6 * side, 2.6), radius: 0.32 * unit, value: sleeve)
        canvas.fillEllipse(
            center: place(0.5 + 0.1 * side, 0.92), radii: SIMD2(0.55, 0.33) * unit, value: skin, softness: 2)
    }

    /// Thumb and fingertips over the edges, reaching `grip` object pixels in; painted after the object.
    /// `thumbTip`, as fractions of the object, sends the thumb further in (over the code).
    func paintFingers(
        into canvas: inout SceneImage, through mapping: Homography, objectSize: SIMD2<Double>, grip: Double,
        thumbTip: SIMD2<Double>? = nil
    ) {
        let place = placer(mapping, objectSize)
        let unit = mapping.localScale(at: objectSize / 2) * objectSize.x
        let reach = grip / objectSize.x
        let (thumbEdge, fingerEdge, outward): (Double, Double, Double) = thumbOnLeft ? (0, 1, -1) : (1, 0, 1)
        for (index, height) in [0.5, 0.62, 0.74].enumerated() {
            let shade = skin * (1 - 0.06 * Float(index))
            canvas.fillCapsule(
                from: place(fingerEdge - 0.2 * outward, height + 0.05),
                to: place(fingerEdge + (reach - 0.045) * outward, height),
                radius: 0.045 * unit, value: shade)
        }
        // Holding the edge, the thumb comes up from below; pressing on the face, it lies across from the side.
        let tip = thumbTip ?? SIMD2(thumbEdge - (reach - 0.06) * outward, 0.72)
        let base =
            thumbTip == nil ? SIMD2(thumbEdge + 0.35 * outward, 1.05) : SIMD2(thumbEdge + 0.45 * outward, tip.y + 0.12)
        canvas.fillCapsule(
            from: place(base.x, base.y), to: place(tip.x, tip.y), radius: 0.06 * unit, value: skin * 1.05)
    }

    private func placer(_ mapping: Homography, _ size: SIMD2<Double>) -> (Double, Double) -> SIMD2<Double> {
        { x, y in mapping.map(SIMD2(x, y) * size) }
    }
}
