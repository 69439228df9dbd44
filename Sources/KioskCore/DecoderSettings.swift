/// The decoder's cascade: which engine reads which preprocessed image, in order, until one finds a code.
///
/// `kiosk.conf` writes it as `decoder_passes = zxing:full | zbar:full, zbar:half, ...` (a bare image name
/// means zbar, as before zxing-cpp joined; the passes after `|` run only on frames with QR finder patterns in
/// them). The default is the order `kiosk-bench decoder` chose on public photo sets and door scenes: cheap and
/// likely first, expensive and rare last (docs/benchmarks/2026-11-25-decoder.md).
public struct DecoderSettings: Equatable, Sendable {
    /// A QR decoding library.
    public enum Engine: String, Equatable, Hashable, Sendable, CaseIterable {
        /// zbar: the kiosk's reference decoder.
        case zbar
        /// zxing-cpp: reads steep angles and codes that fill the frame.
        case zxing
    }

    /// What an engine is given.
    public enum Image: String, Equatable, Hashable, Sendable, CaseIterable {
        /// The frame as captured.
        case full
        /// Box-averaged to half size: fills the frame less, smooths screen moire.
        case half
        /// Box-averaged to a quarter: codes filling a big photo, strong moire.
        case quarter
        /// Local contrast normalised: dim, overexposed, glare and shadow.
        case normalized
        /// Light-on-dark codes.
        case inverted
        /// Unsharp-masked: defocus and motion blur.
        case sharpened
        /// Black and white against the mean of a small window: bright spots, glare and shadows across a code.
        case thresholded
        /// Read module by module from three finder patterns (and the alignment pattern), mended by the code's own
        /// error correction and drawn again whole: a code whose finder patterns show but whose black and white the
        /// engines cannot find or mend (bright spots, glare, perspective, a smear).
        case resampled
    }

    /// One step of the cascade: an engine on an image.
    public struct Pass: Equatable, Hashable, Sendable, CustomStringConvertible {
        public var engine: Engine
        public var image: Image

        public init(_ engine: Engine, _ image: Image) {
            self.engine = engine
            self.image = image
        }

        public static func zbar(_ image: Image) -> Pass { Pass(.zbar, image) }
        public static func zxing(_ image: Image) -> Pass { Pass(.zxing, image) }

        /// `ENGINE:IMAGE`, as `kiosk.conf` and `DecodedCode.foundBy` write it.
        public var description: String { "\(engine.rawValue):\(image.rawValue)" }

        /// Reads `ENGINE:IMAGE` or a bare `IMAGE` (zbar); nil names nothing known.
        public init?(_ text: some StringProtocol) {
            let parts = text.lowercased().split(separator: ":", omittingEmptySubsequences: false)
            switch parts.count {
            case 1:
                guard let image = Image(rawValue: String(parts[0])) else { return nil }
                self.init(.zbar, image)
            case 2:
                guard let engine = Engine(rawValue: String(parts[0])), let image = Image(rawValue: String(parts[1]))
                else { return nil }
                self.init(engine, image)
            default:
                return nil
            }
        }
    }

    /// The default cascade: `defaultPasses` with the passes from `defaultGatedFrom` on run on code-like frames only.
    public static let defaultGatedFrom: Int? = 1
    public static let defaultPasses: [Pass] = [
        .zxing(.full), .zbar(.full), .zbar(.half), .zbar(.normalized), .zxing(.normalized), .zbar(.quarter),
        .zxing(.inverted), .zbar(.thresholded), .zxing(.thresholded), .zbar(.resampled), .zxing(.resampled),
    ]

    /// Tried in order until one finds a code.
    public var passes: [Pass] = DecoderSettings.defaultPasses
    /// The passes from this index on run only on frames where a cheap look finds QR finder patterns (written
    /// `|` in `decoder_passes`); nil: every pass runs on every frame.
    public var gatedFrom: Int? = DecoderSettings.defaultGatedFrom
    /// Frames larger than this many pixels on the long side are first box-scaled down to about it.
    public var maxSide = 1280

    public init() {}

    public init(passes: [Pass], gatedFrom: Int? = nil, maxSide: Int = 1280) {
        self.passes = passes
        self.gatedFrom = gatedFrom
        self.maxSide = maxSide
    }

    /// Parses `decoder_passes`: passes separated by commas, and at most one `|` before the passes that run only
    /// on code-like frames. Nil with the reason when something is wrong.
    public static func parseCascade(_ text: String) -> Result<(passes: [Pass], gatedFrom: Int?), CascadeError> {
        let groups = text.split(separator: "|", omittingEmptySubsequences: false)
        guard groups.count <= 2 else { return .failure(.twoGates) }
        var passes: [Pass] = []
        var gatedFrom: Int?
        for (index, group) in groups.enumerated() {
            if index == 1 { gatedFrom = passes.count }
            for item in group.split(separator: ",") {
                let name = String(item.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
                guard !name.isEmpty else { continue }
                guard let pass = Pass(name) else { return .failure(.unknown(name)) }
                guard !passes.contains(pass) else { return .failure(.twice(pass)) }
                passes.append(pass)
            }
        }
        guard !passes.isEmpty else { return .failure(.empty) }
        if let gate = gatedFrom, gate == 0 || gate == passes.count { return .failure(.gateAtAnEnd) }
        return .success((passes, gatedFrom))
    }

    /// What is wrong with a `decoder_passes` value.
    public enum CascadeError: Error, Equatable, CustomStringConvertible {
        case unknown(String)
        case twice(Pass)
        case twoGates
        case gateAtAnEnd
        case empty

        public var description: String {
            switch self {
            case .unknown(let name):
                let engines = Engine.allCases.map(\.rawValue).joined(separator: ", ")
                let images = Image.allCases.map(\.rawValue).joined(separator: ", ")
                return
                    "unknown decoder pass '\(name)': write ENGINE:IMAGE with ENGINE one of \(engines) and IMAGE one of \(images) (a bare IMAGE means zbar)"
            case .twice(let pass): return "decoder pass '\(pass)' is listed twice"
            case .twoGates:
                return "'decoder_passes' has more than one '|' (the passes after it run on code-like frames only)"
            case .gateAtAnEnd: return "'|' in 'decoder_passes' needs passes before and after it"
            case .empty: return "'decoder_passes' needs at least one pass"
            }
        }
    }

    /// The cascade as `decoder_passes` writes it.
    public var cascadeText: String {
        var text = ""
        for (index, pass) in passes.enumerated() {
            if index > 0 { text += index == gatedFrom ? " | " : ", " }
            text += pass.description
        }
        return text
    }
}
