import Foundation

extension DoorCondition {
    /// The scene for this condition at `severity` (0...1), with the random parts drawn from `rng`.
    func recipe(severity s: Double, using rng: inout some RandomNumberGenerator) -> SceneRecipe {
        let degree = Double.pi / 180
        let printed = SceneRecipe.Carrier.printedCard(
            ink: Float(rng.uniform(20, 40)), paper: Float(rng.uniform(215, 235)), crumple: nil)
        // A phone at ordinary distance: its pixel grid is far finer than the camera's pixels, which average it
        // away (drawn flat: point-sampling it would alias).
        let distantPhone = SceneRecipe.Carrier.phone(
            screenPitch: rng.uniform(0.35, 0.5), subpixelContrast: 0, darkMode: false)
        var recipe = SceneRecipe(carrier: rng.coinFlip(probability: 0.6) ? printed : distantPhone)
        recipe.moduleSize = rng.uniform(4.8, 6)
        recipe.roll = rng.uniform(-12, 12) * degree
        recipe.tiltX = rng.uniform(-10, 10) * degree
        recipe.tiltY = rng.uniform(-10, 10) * degree
        recipe.camera.lensBlur = rng.uniform(0.5, 0.7)
        switch self {
        case .plain:
            recipe.moduleSize = rng.uniform(5, 6.5) - 1.2 * s
            recipe.camera.readNoise = Float(1.2 + s)
        case .phoneScreenCloseUp:
            let detuning = (0.25 - 0.17 * s) * rng.uniform(0.8, 1.2)
            recipe.carrier = .phone(
                screenPitch: 1 + rng.randomSign() * detuning, subpixelContrast: 0.5 + 0.5 * s, darkMode: false)
            recipe.moduleSize = rng.uniform(7.5, 9)
            recipe.framing = .centered
            recipe.roll = rng.randomSign() * rng.uniform(2, 8) * degree
            recipe.camera.lensBlur = rng.uniform(0.5, 0.7)
        case .fillsFrame:
            recipe.carrier = .phone(screenPitch: rng.uniform(0.75, 0.9), subpixelContrast: 0.3, darkMode: false)
            recipe.framing = .fillsFrame(quietZone: 1.6 - 1.4 * s)
            recipe.roll = rng.uniform(-3, 3) * degree
            recipe.tiltX = rng.uniform(-4, 4) * degree
            recipe.tiltY = rng.uniform(-4, 4) * degree
            recipe.camera.lensBlur = 0.8 + s
        case .smallFarAway:
            if case .phone = recipe.carrier {
                recipe.carrier = .phone(screenPitch: 0.2, subpixelContrast: 0, darkMode: false)
            }
            recipe.moduleSize = 2.5 - 0.6 * s
            recipe.camera.lensBlur = 0.5
        case .tiltedPerspective:
            recipe.carrier = printed
            let tilt = (20 + 30 * s) * degree
            let axis = rng.uniform(0, 2 * .pi)
            recipe.tiltX = tilt * cos(axis)
            recipe.tiltY = tilt * sin(axis)
            recipe.focalLength = 0.7
            recipe.moduleSize = rng.uniform(5.5, 6.5)
            recipe.roll = rng.uniform(-20, 20) * degree
        case .rotated:
            recipe.roll = (rng.uniform(20, 70) + 90 * Double(rng.index(below: 4))) * degree
            recipe.moduleSize = rng.uniform(5, 6) - 0.5 * s
        case .dim:
            recipe.camera.exposure = Float(0.3 - 0.2 * s)
            recipe.camera.gain = 1.6
            recipe.camera.readNoise = Float(2 + 1.5 * s)
            recipe.camera.vignetting = 0.4
        case .overexposed:
            recipe.camera.exposure = Float(1.6 + 1.6 * s)
            recipe.camera.bloom = 0.4
            recipe.haze = Float(10 + 20 * s)
        case .motionBlur:
            recipe.moduleSize = rng.uniform(5.5, 6.5)
            recipe.camera.motionLength = recipe.moduleSize * (0.35 + 0.7 * s)
            recipe.camera.motionAngle = rng.uniform(0, .pi)
        case .defocused:
            recipe.moduleSize = rng.uniform(5.5, 6.5)
            recipe.camera.lensBlur = recipe.moduleSize * (0.25 + 0.3 * s)
        case .printedCrumpled:
            guard case .printedCard(let ink, let paper, _) = printed else { break }
            recipe.carrier = .printedCard(
                ink: ink, paper: paper, crumple: PaperCrumple(amplitude: 0.1 + 0.3 * s, folds: 1 + Int(2 * s + 0.5)))
            recipe.moduleSize = rng.uniform(5, 6)
            recipe.lightGradient = 0.15
        case .inverted:
            recipe.carrier = .phone(screenPitch: rng.uniform(0.35, 0.5), subpixelContrast: 0, darkMode: true)
            recipe.moduleSize = rng.uniform(5, 6) - 0.5 * s
        case .glare:
            recipe.carrier = .phone(screenPitch: rng.uniform(0.4, 0.55), subpixelContrast: 0, darkMode: false)
            recipe.moduleSize = rng.uniform(6, 7)
            recipe.glareRadius = 1.2 + 2.5 * s
            recipe.reflection = Float(15 + 35 * s)
        case .harshShadow:
            recipe.shadowDepth = 0.45 + 0.35 * s
            recipe.lightGradient = 0.25
            recipe.camera.vignetting = 0.35
        case .lowContrast:
            let paper = Float(rng.uniform(185, 205))
            recipe.carrier = .printedCard(ink: paper - Float(110 - 80 * s), paper: paper, crumple: nil)
            recipe.haze = Float(20 + 20 * s)
            recipe.camera.lensBlur = 0.8
        case .thumbOverCode:
            recipe.thumbOverCode = SIMD2(1 - (0.15 + 0.2 * s), rng.uniform(0.4, 0.55))
        }
        return recipe
    }
}
