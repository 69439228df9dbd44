/// Where everything on one screen goes: laid out by `ScreenRenderer.layout`, drawn by `ScreenRenderer.draw`.
/// Public so tests (and the hardware-in-the-loop test's screendumps) can check a region, such as the name.
public struct ScreenLayout: Sendable {
    /// What a piece of text is.
    public enum Role: Hashable, Sendable {
        case headline, name, party, reason, detail, notes, arrived, hint
        case title, query, message, more
        /// The number, name and details of manual-entry match `n` (from 1).
        case matchNumber(Int)
        case matchName(Int)
        case matchParty(Int)
        case matchDetail(Int)
        case cameraState
    }

    public struct Text: Sendable {
        public var role: Role
        public var text: FittedText
        public var weight: FontWeight
        public var color: RGBColor
        /// The block's box: `text.width` by `text.height` when centred, the column when left-aligned.
        public var frame: Rect
        public var centred: Bool
    }

    public struct Box: Sendable {
        public var rect: Rect
        public var color: RGBColor
    }

    /// The bottom line of facts: door, mode, online, pending, camera, preview rate.
    public struct StatusBar: Sendable {
        public var rect: Rect
        public var segments: [(text: String, color: RGBColor)]
        public var size: Int
        public var background: RGBColor
    }

    public var width: Int
    public var height: Int
    public var background: RGBColor
    /// Filled before any text, in order.
    public var boxes: [Box] = []
    public var texts: [Text] = []
    public var statusBar: StatusBar?
    /// The ready screen's camera area (black when there is no picture).
    public var previewArea: Rect?

    /// The frame of the first text with `role`.
    public func frame(of role: Role) -> Rect? {
        texts.first { $0.role == role }?.frame
    }

    public func text(of role: Role) -> Text? {
        texts.first { $0.role == role }
    }
}
