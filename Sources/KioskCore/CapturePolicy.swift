import struct Foundation.Date

/// How hard the decoder should look at a frame.
public enum DecodeEffort: Equatable, Sendable {
    /// Not at all: the scene is still and no code is in view.
    case skip
    /// The first decoder pass only: the idle safety net, cheap.
    case quick
    /// Every decoder pass: something moves, or a code was just in view.
    case thorough
}

/// The adaptive frame rate and decode gating of the capture loop.
///
/// `idle_fps` while the scene is still, `active_fps` as soon as motion is seen, back to idle after
/// `quiet_time` without motion. While the scene is still and no code is in view, frames are not decoded,
/// except a quick look every `idleDecodeInterval` (a pass laid perfectly still on a counter).
public struct CapturePolicy: Sendable {
    public struct Settings: Equatable, Sendable {
        public var idleFPS: Double
        public var activeFPS: Double
        public var motionThreshold: Double
        public var quietTime: Double
        public var idleDecodeInterval: Double

        public init(
            idleFPS: Double = 15, activeFPS: Double = 30, motionThreshold: Double = 8, quietTime: Double = 2,
            idleDecodeInterval: Double = 2
        ) {
            self.idleFPS = idleFPS
            self.activeFPS = activeFPS
            self.motionThreshold = motionThreshold
            self.quietTime = quietTime
            self.idleDecodeInterval = idleDecodeInterval
        }

        public init(_ c: KioskConfiguration) {
            self.init(
                idleFPS: c.idleFPS, activeFPS: c.activeFPS, motionThreshold: c.motionThreshold,
                quietTime: c.quietTime)
        }
    }

    public var settings: Settings
    private var lastMotion: Date?
    private var lastCode: Date?
    private var lastDecode: Date?
    private var lastPreview: Date?
    /// Below this mean change the picture on screen would look the same: it is redrawn once a second only.
    public static let visibleChange = 1.0

    public init(settings: Settings) { self.settings = settings }

    /// Whether the scene counts as active at `now`.
    public func isActive(at now: Date) -> Bool {
        [lastMotion, lastCode].contains { $0.map { now.timeIntervalSince($0) < settings.quietTime } ?? false }
    }

    /// The frame rate the camera should run at now.
    public func targetFPS(at now: Date) -> Double { isActive(at: now) ? settings.activeFPS : settings.idleFPS }

    /// Takes one frame's motion level; says how to decode it.
    public mutating func observe(motion: Double, at now: Date) -> DecodeEffort {
        if motion >= settings.motionThreshold { lastMotion = now }
        let effort: DecodeEffort
        if isActive(at: now) {
            effort = .thorough
        } else if lastDecode.map({ now.timeIntervalSince($0) >= settings.idleDecodeInterval || now < $0 }) ?? true {
            effort = .quick
        } else {
            effort = .skip
        }
        if effort != .skip { lastDecode = now }
        return effort
    }

    /// Whether to redraw the live picture: on any visible change, else once a second (a still scene costs
    /// almost nothing to show).
    public mutating func previewDue(motion: Double, at now: Date) -> Bool {
        let due =
            motion >= Self.visibleChange || isActive(at: now)
            || lastPreview.map { now.timeIntervalSince($0) >= 1 || now < $0 } ?? true
        if due { lastPreview = now }
        return due
    }

    /// A code was read: keep decoding thoroughly while it may still be in view.
    public mutating func codeSeen(at now: Date) { lastCode = now }
}
