import GrayImage

/// A code found in a frame.
public struct DecodedCode: Equatable, Sendable {
    /// The raw bytes the code holds.
    public var payload: [UInt8]
    /// Which decoding pass found it (for benchmarks and logs), e.g. "full", "half", "normalized".
    public var foundBy: String
    /// Where the code is: its corners (or the outline the engine gave) in the frame's pixels; empty where the
    /// decoder does not say.
    public var corners: [SIMD2<Double>]

    public init(payload: [UInt8], foundBy: String, corners: [SIMD2<Double>] = []) {
        self.payload = payload
        self.foundBy = foundBy
        self.corners = corners
    }

    public var text: String { String(decoding: payload, as: UTF8.self) }

    /// The mean of its corners; nil where the decoder does not say where the code is.
    public var centre: SIMD2<Double>? { corners.centroid }
}

/// Finds QR codes in a frame. Implemented over zbar in `KioskDecoding`. Not shared between tasks.
public protocol FrameDecoder: AnyObject {
    /// Every pass the decoder has, until one finds a code (going on while more codes look in view).
    func decode(_ frame: GrayFrame) -> [DecodedCode]
    /// The first pass only: a cheap look at an idle scene.
    func decodeQuickly(_ frame: GrayFrame) -> [DecodedCode]
}

extension FrameDecoder {
    public func decodeQuickly(_ frame: GrayFrame) -> [DecodedCode] { decode(frame) }

    public func decode(_ frame: GrayFrame, effort: DecodeEffort) -> [DecodedCode] {
        switch effort {
        case .skip: []
        case .quick: decodeQuickly(frame)
        case .thorough: decode(frame)
        }
    }
}
