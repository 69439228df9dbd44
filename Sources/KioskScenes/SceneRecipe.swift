/// Everything that makes one scene: what carries the code, where it is, what else is in the frame, and how the
/// camera records it. Built from a `DoorCondition` and a severity.
struct SceneRecipe: Sendable {
    enum Carrier: Sendable {
        /// A paper pass: ink and paper brightness, crumpling (nil for flat).
        case printedCard(ink: Float, paper: Float, crumple: PaperCrumple?)
        /// A phone: frame pixels per screen pixel (near 1 makes moire), how visible the subpixel stripes are.
        case phone(screenPitch: Double, subpixelContrast: Double, darkMode: Bool)
    }

    enum Framing: Sendable {
        /// The code and its quiet zone fully inside the frame, anywhere.
        case anywhere
        /// Near the middle of the frame.
        case centered
        /// The code spans the frame's height with `quietZone` modules of it left above and below.
        case fillsFrame(quietZone: Double)
    }

    var carrier: Carrier
    /// Frame pixels per module at the code's centre (ignored for `.fillsFrame`).
    var moduleSize: Double = 5
    var framing: Framing = .anywhere
    /// Pose angles in radians; focal length as a multiple of the frame width.
    var roll: Double = 0
    var tiltX: Double = 0
    var tiltY: Double = 0
    var focalLength: Double = 0.9
    var hand: Bool = true
    /// Where the thumb tip lands over the code, as fractions of the code (nil: on the margin).
    var thumbOverCode: SIMD2<Double>? = nil
    /// Glare radius in modules (0: none) and reflection strength in grey levels.
    var glareRadius: Double = 0
    var reflection: Float = 0
    /// Shadow depth across the code (0...1), light gradient across the frame.
    var shadowDepth: Double = 0
    var lightGradient: Double = 0
    /// Added uniformly, as haze or stray light.
    var haze: Float = 0
    var camera = CameraSettings()
}

extension SceneRecipe {
    /// The recipes are written for 480-line frames; a higher-resolution camera at the same distance sees every
    /// length (modules, blur, motion) proportionally larger.
    func scaled(toFrameHeight height: Int, keepingModuleSize: Bool = false) -> SceneRecipe {
        let factor = Double(height) / 480
        var scaled = self
        guard !keepingModuleSize else { return scaled }
        scaled.moduleSize *= factor
        scaled.camera.lensBlur *= factor
        scaled.camera.motionLength *= factor
        return scaled
    }
}
