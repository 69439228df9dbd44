import Foundation

/// The part of the frame where a pass may be placed, in frame pixels.
struct PlacementRegion: Sendable {
    var minX: Double
    var minY: Double
    var maxX: Double
    var maxY: Double
}

/// Where a pass ended up in the frame, for the effects applied after it (shadows).
struct PlacedPass: Sendable {
    var codeCenter: SIMD2<Double>
    /// Frame pixels per module.
    var moduleSize: Double
}

/// A pass on its carrier (paper or phone) with the hand holding it, posed and painted into a scene following a
/// recipe.
struct HeldPass {
    private enum Object {
        case card(SceneImage)
        case phone(PhoneScreen)
    }

    private let object: Object
    private let recipe: SceneRecipe
    private let code: PassCode
    /// Object pixels: size, code origin and side, pixels per module, margin to hold it by.
    private let size: SIMD2<Double>
    private let codeOrigin: SIMD2<Double>
    private let codeSide: Double
    private let pixelsPerModule: Double
    private let grip: Double

    init(_ code: PassCode, recipe: SceneRecipe, using rng: inout some RandomNumberGenerator) {
        self.code = code
        self.recipe = recipe
        switch recipe.carrier {
        case .printedCard(let ink, let paper, let crumple):
            let card = PrintedCard(
                code: code, pixelsPerModule: max(6, (1.3 * recipe.moduleSize).rounded()), ink: ink, paper: paper,
                using: &rng)
            object = .card(crumple?.applied(to: card, using: &rng) ?? card.image)
            (size, codeOrigin, codeSide, pixelsPerModule) = (
                card.size, card.codeOrigin, card.codeSide, card.pixelsPerModule
            )
            grip = card.gripMargin
        case .phone(let pitch, let contrast, let darkMode):
            var screen = PhoneScreen(
                code: code, screenPixelsPerModule: recipe.moduleSize / pitch, darkMode: darkMode, using: &rng)
            screen.subpixelContrast = contrast
            screen.rowGap = 0.25 * contrast
            object = .phone(screen)
            (size, codeOrigin, codeSide, pixelsPerModule) = (
                screen.size, screen.codeOrigin, screen.codeSide, screen.screenPixelsPerModule
            )
            grip = screen.bezel.x * 1.3
        }
    }

    /// Poses the pass inside `region` and paints hand, pass, fingers, glare and reflection into `scene`.
    func draw(
        into scene: inout SceneImage, within region: PlacementRegion, using rng: inout some RandomNumberGenerator
    ) -> PlacedPass {
        var pose = CardPose(
            center: .zero, scale: 1, roll: recipe.roll, tiltX: recipe.tiltX, tiltY: recipe.tiltY,
            focalLength: recipe.focalLength * Double(scene.width))
        var moduleSize = recipe.moduleSize
        var quietZone = 4.0
        if case .fillsFrame(let visible) = recipe.framing {
            moduleSize = (region.maxY - region.minY) / (Double(code.moduleCount) + 2 * visible)
            quietZone = visible
        }
        pose.scale = moduleSize / pixelsPerModule
        pose.center = placement(for: pose, quietZone: quietZone, in: region, using: &rng)
        let mapping = pose.homography(objectSize: size)

        var hand = HoldingHand(using: &rng)
        if recipe.thumbOverCode != nil { hand.thumbOnLeft = false }
        if recipe.hand { hand.paintBehind(into: &scene, through: mapping, objectSize: size) }
        var coverage = SceneImage(width: scene.width, height: scene.height)
        switch object {
        case .card(let image):
            scene.paint(image.prefiltered(forScale: pose.scale), through: mapping, coverage: &coverage)
        case .phone(let screen):
            screen.draw(into: &scene, through: mapping, supersampling: pose.scale > 0.6 ? 3 : 2, coverage: &coverage)
        }
        if recipe.hand {
            let thumbTip = recipe.thumbOverCode.map { (codeOrigin + $0 * codeSide) / size }
            hand.paintFingers(into: &scene, through: mapping, objectSize: size, grip: grip, thumbTip: thumbTip)
        }
        let codeCenter = mapping.map(codeOrigin + codeSide / 2)
        if recipe.glareRadius > 0 {
            let spot = codeOrigin + SIMD2(rng.uniform(0.35, 0.75), rng.uniform(0.35, 0.75)) * codeSide
            scene.addGlare(
                center: mapping.map(spot), radius: recipe.glareRadius * moduleSize, angle: rng.uniform(0, .pi),
                peak: 320, mask: coverage)
        }
        if recipe.reflection > 0 { scene.addReflection(amount: recipe.reflection, mask: coverage, using: &rng) }
        return PlacedPass(codeCenter: codeCenter, moduleSize: moduleSize)
    }

    /// Where the object's centre goes so the code and `quietZone` modules around it fit in `region` (for
    /// `.fillsFrame`, so the code is centred and the rest is cut off).
    private func placement(
        for pose: CardPose, quietZone: Double, in region: PlacementRegion, using rng: inout some RandomNumberGenerator
    ) -> SIMD2<Double> {
        let margin = quietZone * pixelsPerModule
        let corners = rectangle(
            codeOrigin.x - margin, codeOrigin.y - margin, codeOrigin.x + codeSide + margin,
            codeOrigin.y + codeSide + margin
        ).map(pose.homography(objectSize: size).map)
        let low = SIMD2(corners.map(\.x).min()!, corners.map(\.y).min()!)
        let high = SIMD2(corners.map(\.x).max()!, corners.map(\.y).max()!)
        let regionLow = SIMD2(region.minX, region.minY)
        let regionHigh = SIMD2(region.maxX, region.maxY)
        let middle = (regionLow + regionHigh) / 2 - (low + high) / 2
        let slack = ((regionHigh - regionLow) - (high - low)) / 2
        let jitter = SIMD2(rng.uniform(-1, 1), rng.uniform(-1, 1))
        switch recipe.framing {
        case .anywhere:
            return middle + jitter * pointwiseMax(slack - 2, .zero)
        case .centered:
            let nearMiddle = pointwiseMin(slack - 2, (regionHigh - regionLow) * 0.05)
            return middle + jitter * pointwiseMax(nearMiddle, .zero)
        case .fillsFrame:
            let moduleSize = pose.scale * pixelsPerModule
            let width = region.maxX - region.minX
            return middle + jitter * SIMD2(0.1 * width, 0.4 * quietZone * moduleSize)
        }
    }
}
