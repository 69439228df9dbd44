import Foundation

/// What each test image must decode to and which verdicts it must give (`test-images/manifest.json`).
public struct TestManifest: Codable, Sendable {
    public struct Entry: Codable, Sendable, Equatable {
        public var file: String
        /// The scene: "plain", "phone-screen-close-up", ... or a verdict case such as "forged-signature".
        public var condition: String
        /// Whether this image tests robustness (a door condition) rather than a verdict.
        public var robustness: Bool
        /// The payloads the decoder must read, as text; payloads that are not UTF-8 are "hex:<bytes>".
        public var codes: [String]
        /// The verdicts the kiosk must give, in order (empty: no verdict, e.g. no code in view).
        public var verdicts: [String]
        public var width: Int
        public var height: Int
        /// The scene's severity (0 mild ... 1 hard), for scenes of one code.
        public var severity: Double?
        public var note: String
    }

    /// A door condition the generator left out because no scene of it read for this seed's key and guest.
    public struct Omission: Codable, Sendable, Equatable {
        public var file: String
        public var condition: String
        public var reason: String
    }

    public var tenant: UInt32
    public var event: UInt32
    public var seed: UInt64
    /// Seconds between images on the replay's virtual clock: each image is a separate guest.
    public var replayFPS: Double
    public var entries: [Entry]
    /// Door conditions left out (absent when none was: the golden set has none).
    public var omitted: [Omission]?

    public static func load(_ path: String) throws -> TestManifest {
        try JSONDecoder().decode(TestManifest.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
    }

    public func write(_ path: String) throws {
        let e = JSONEncoder()
        e.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try (e.encode(self) + Data("\n".utf8)).write(to: URL(fileURLWithPath: path))
    }

    /// The manifest spelling of a payload.
    public static func spell(_ payload: [UInt8]) -> String {
        if let s = String(validating: payload, as: UTF8.self), !s.hasPrefix("hex:") { return s }
        return "hex:" + payload.map { String(format: "%02x", $0) }.joined()
    }
}
