import GrayImage
import KioskCore

/// The door camera between the scene and the frame: lens, motion during the exposure, exposure and gain,
/// vignetting, blooming, sensor noise and 8-bit output.
struct CameraSettings: Sendable {
    /// Gaussian sigma of the lens blur (defocus included), in frame pixels.
    var lensBlur: Double = 0.6
    /// How far the pass moved during the exposure, in frame pixels, and in which direction (radians).
    var motionLength: Double = 0
    var motionAngle: Double = 0
    /// Light reaching the sensor relative to a normal exposure.
    var exposure: Float = 1
    /// Amplification after the sensor (amplifies its noise too).
    var gain: Float = 1
    var vignetting: Double = 0.2
    /// Share of the light above full scale that spills into neighbouring pixels.
    var bloom: Float = 0
    var readNoise: Float = 1.5
    var shotNoise: Float = 0.03

    func capture(_ scene: SceneImage, using rng: inout some RandomNumberGenerator) -> GrayFrame {
        var image = scene.gaussianBlurred(sigma: lensBlur)
        if motionLength >= 1 { image = image.motionBlurred(length: motionLength, angle: motionAngle) }
        image.scale(by: exposure)
        image.applyVignetting(strength: vignetting)
        if bloom > 0 { image.applyBloom(threshold: 255, strength: bloom, sigma: 2.5) }
        image.addSensorNoise(readNoise: readNoise, shotNoise: shotNoise, using: &rng)
        if gain != 1 { image.scale(by: gain) }
        return image.grayFrame()
    }
}
