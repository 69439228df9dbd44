/// A way a pass can look to the door camera: one robustness case for the decoder, rendered by
/// `DoorScenes.render(_:code:moduleSize:width:height:severity:rng:)`.
///
/// Every case at the default severity is meant to be hard but readable by a good decoder (one that retries at
/// half and quarter size, on a local-contrast-normalised copy and inverted); higher severities are harder.
public enum DoorCondition: String, CaseIterable, Sendable {
    case plain
    case phoneScreenCloseUp
    case fillsFrame
    case smallFarAway
    case tiltedPerspective
    case rotated
    case dim
    case overexposed
    case motionBlur
    case defocused
    case printedCrumpled
    case inverted
    case glare
    case harshShadow
    case lowContrast
    case thumbOverCode

    /// One line on what the frame shows.
    public var summary: String {
        switch self {
        case .plain: "printed pass held in hand, modules about 5 px, slight tilt, ordinary light"
        case .phoneScreenCloseUp:
            "phone held close: screen pixel grid and RGB stripes beat against the sensor into moire, bezel, hand"
        case .fillsFrame: "phone right up to the lens: modules about 12 px, quiet zone cut by the frame edge, defocus"
        case .smallFarAway: "pass at arm's length: modules about 2.2 px, anywhere in the frame"
        case .tiltedPerspective: "printed pass tilted about 40 degrees away, strong perspective (keystone)"
        case .rotated: "pass turned in plane by 20 to 70 degrees off a right angle"
        case .dim: "low light: dark, low-contrast, noisy (gain amplifies sensor noise), strong vignetting"
        case .overexposed: "too much light: whites clip and bloom into the dark modules, blacks lifted"
        case .motionBlur: "pass moving during the exposure: linear blur of about 0.7 module in a random direction"
        case .defocused: "pass nearer than the focus distance: gaussian blur of about 0.4 module"
        case .printedCrumpled: "crumpled printout: bent modules, creases that shift and shade, paper texture"
        case .inverted: "phone in dark mode: light modules on a dark screen"
        case .glare: "glossy screen catching a lamp: a saturated highlight over part of the code and a faint reflection"
        case .harshShadow: "the holder's shadow across half the code, plus uneven light and vignetting"
        case .lowContrast: "faded print on grey paper in haze: dark modules only about 70 levels below the light ones"
        case .thumbOverCode: "the holding thumb over part of the code's data (not a finder pattern)"
        }
    }
}
