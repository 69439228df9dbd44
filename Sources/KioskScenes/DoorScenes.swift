import GrayImage
import KioskCore

/// Synthetic door-camera frames for golden images and robustness tests: a clean QR code put into a realistic
/// scene (a pass held up in a lobby) and recorded by a simulated webcam.
///
/// Every function is deterministic in its arguments and the state of `rng`: seed a `SplitMix64` to get the same
/// frame on every run.
public enum DoorScenes {
    /// A frame showing `code` under `condition`.
    ///
    /// - Parameters:
    ///   - code: A clean QR code: dark modules 0, light 255. Its margin is ignored (the scene draws its own
    ///     quiet zone).
    ///   - moduleSize: Pixels per module in `code`.
    ///   - severity: 0 (mild) ... 1 (hard); the default is hard but readable by a good decoder.
    ///   - clutter: How many sharp busy things (`SceneClutter`) stand between the lobby and the pass.
    public static func render(
        _ condition: DoorCondition, code: GrayFrame, moduleSize: Int, width: Int = 640, height: Int = 480,
        severity: Double = 0.5, clutter: Int = 0, rng: inout some RandomNumberGenerator
    ) -> GrayFrame {
        var recipe = condition.recipe(severity: min(max(severity, 0), 1), using: &rng)
            .scaled(toFrameHeight: height, keepingModuleSize: condition == .smallFarAway)
        var scene = SceneBackground.cluttered(width: width, height: height, using: &rng)
        SceneClutter.draw(clutter, into: &scene, using: &rng)
        let pass = PassCode(code, moduleSize: moduleSize)
        if condition != .fillsFrame {
            // Dense codes (pass URLs are version 10) get smaller modules so code and quiet zone stay in view.
            let fit = 0.92 * Double(min(width, height)) / (Double(pass.moduleCount) + 8)
            recipe.moduleSize = min(recipe.moduleSize, fit)
        }
        let region = PlacementRegion(minX: 0, minY: 0, maxX: Double(width), maxY: Double(height))
        let placed = HeldPass(pass, recipe: recipe, using: &rng).draw(into: &scene, within: region, using: &rng)
        if recipe.shadowDepth > 0 {
            scene.applyShadow(
                through: placed.codeCenter, direction: rng.uniform(0, 2 * .pi), depth: recipe.shadowDepth,
                softness: 1.5 * placed.moduleSize)
        }
        if recipe.lightGradient > 0 {
            scene.applyLightGradient(direction: rng.uniform(0, 2 * .pi), amount: recipe.lightGradient)
        }
        if recipe.haze > 0 { scene.map { $0 + recipe.haze } }
        return recipe.camera.capture(scene, using: &rng)
    }

    /// A frame with two passes side by side (two guests at once, or a guest holding two), both ordinary.
    public static func renderTwo(
        _ codeA: GrayFrame, _ codeB: GrayFrame, moduleSize: Int, width: Int = 640, height: Int = 480,
        severity: Double = 0.5, rng: inout some RandomNumberGenerator
    ) -> GrayFrame {
        let severity = min(max(severity, 0), 1)
        var scene = SceneBackground.cluttered(width: width, height: height, using: &rng)
        let half = Double(width) / 2
        var camera = CameraSettings()
        for (index, code) in [codeA, codeB].enumerated() {
            var recipe = DoorCondition.plain.recipe(severity: severity, using: &rng).scaled(toFrameHeight: height)
            let pass = PassCode(code, moduleSize: moduleSize)
            // Both codes and their quiet zones must fit in half the frame each.
            let fit = half / (Double(pass.moduleCount) + 10)
            recipe.moduleSize = min(recipe.moduleSize, fit) * rng.uniform(0.9, 1)
            let region = PlacementRegion(
                minX: Double(index) * half, minY: 0, maxX: Double(index + 1) * half, maxY: Double(height))
            _ = HeldPass(pass, recipe: recipe, using: &rng).draw(into: &scene, within: region, using: &rng)
            camera = recipe.camera
        }
        return camera.capture(scene, using: &rng)
    }

    /// A frame with no code: the lobby, and sometimes a hand holding a phone whose pass screen shows no code
    /// yet (an empty white card), with `clutter` sharp busy things (`SceneClutter`) in view. For false-positive
    /// tests.
    public static func empty(
        width: Int = 640, height: Int = 480, clutter: Int = 0, rng: inout some RandomNumberGenerator
    ) -> GrayFrame {
        var scene = SceneBackground.cluttered(width: width, height: height, using: &rng)
        SceneClutter.draw(clutter, into: &scene, using: &rng)
        var recipe = DoorCondition.plain.recipe(severity: 0.5, using: &rng).scaled(toFrameHeight: height)
        if rng.coinFlip(probability: 0.7) {
            recipe.carrier = .phone(screenPitch: 0.4, subpixelContrast: 0, darkMode: rng.coinFlip(probability: 0.3))
            let blank = PassCode(GrayFrame(width: 200, height: 200, fill: 255), moduleSize: 8)
            let region = PlacementRegion(minX: 0, minY: 0, maxX: Double(width), maxY: Double(height))
            _ = HeldPass(blank, recipe: recipe, using: &rng).draw(into: &scene, within: region, using: &rng)
        }
        return recipe.camera.capture(scene, using: &rng)
    }
}
