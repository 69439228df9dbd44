/// A code found in a frame.
public struct DecodedCode: Equatable, Sendable {
    /// The raw bytes the code holds.
    public var payload: [UInt8]
    /// Which decoding pass found it (for benchmarks and logs), e.g. "full", "half", "normalized".
    public var foundBy: String

    public init(payload: [UInt8], foundBy: String) {
        self.payload = payload
        self.foundBy = foundBy
    }

    public var text: String { String(decoding: payload, as: UTF8.self) }
}

/// Finds QR codes in a frame. Implemented over zbar in `KioskDecoding`. Not shared between tasks.
public protocol FrameDecoder: AnyObject {
    func decode(_ frame: GrayFrame) -> [DecodedCode]
}
