import GrayImage

/// The tone a verdict sounds at the door, so staff hear it without looking: one for admitted, one for already
/// checked in, one for every refusal. Staff actions (an undone check-in) and a guest waiting for Enter are silent.
public enum VerdictSound: String, Equatable, Sendable, CaseIterable {
    case admitted
    case alreadyCheckedIn
    case refused

    /// The notes, in order: frequency in hertz and length in seconds, with a short gap between notes.
    /// Admitted rises (a fifth), already checked in is two equal mid beeps, a refusal is one low long tone:
    /// told apart by pitch and rhythm alike.
    public var notes: [(hertz: Double, seconds: Double)] {
        switch self {
        case .admitted: [(880, 0.09), (1320, 0.14)]
        case .alreadyCheckedIn: [(660, 0.1), (660, 0.1)]
        case .refused: [(220, 0.35)]
        }
    }

    /// The gap between two notes, in seconds.
    public static let gap = 0.05

    /// The tone as 16-bit mono samples at `rate` hertz, at `volume` (0 to 100, a share of full scale), each note
    /// faded in and out over 5 ms so it does not click.
    public func samples(rate: Int, volume: Int) -> [Int16] {
        let amplitude = Double(max(0, min(100, volume))) / 100 * Double(Int16.max) * 0.8
        let fade = max(1, Int(Double(rate) * 0.005))
        var out: [Int16] = []
        for (index, note) in notes.enumerated() {
            if index > 0 { out.append(contentsOf: repeatElement(0, count: Int(Self.gap * Double(rate)))) }
            let count = Int(note.seconds * Double(rate))
            for i in 0..<count {
                let envelope = Double(min(i, count - 1 - i, fade)) / Double(fade)
                let phase = 2 * Double.pi * note.hertz * Double(i) / Double(rate)
                out.append(Int16((amplitude * envelope * Self.sine(phase)).rounded()))
            }
        }
        return out
    }

    /// sin(x) without Foundation (the core imports none of it for maths): reduced to [-π, π], then a Taylor
    /// series, exact to about 1e-9 there.
    static func sine(_ x: Double) -> Double {
        var r = x.truncatingRemainder(dividingBy: 2 * Double.pi)
        if r > Double.pi { r -= 2 * Double.pi } else if r < -Double.pi { r += 2 * Double.pi }
        let r2 = r * r
        var term = r
        var sum = r
        for n in stride(from: 2, through: 30, by: 2) {
            term *= -r2 / Double(n * (n + 1))
            sum += term
        }
        return sum
    }
}

extension Verdict {
    /// The tone this verdict sounds, or nil for none.
    public var sound: VerdictSound? {
        switch self {
        case .admitted: .admitted
        case .alreadyCheckedIn: .alreadyCheckedIn
        case .notValidHere, .cancelled, .notInRoster, .rosterIncomplete, .updateRequired, .recordFailed: .refused
        case .awaitingConfirmation, .checkInUndone: nil
        }
    }
}

/// Plays a verdict's tone. It must return at once: a verdict is never delayed by its sound.
public protocol DoorSounder: AnyObject {
    func play(_ sound: VerdictSound)
}

/// A display that also sounds each verdict it shows, before showing it (playing only hands the tone over).
public final class SoundingDisplay: StatusDisplay {
    private let display: any StatusDisplay
    private let sounder: any DoorSounder

    public init(_ display: any StatusDisplay, sounder: any DoorSounder) {
        self.display = display
        self.sounder = sounder
    }

    public func show(_ screen: DoorScreen) {
        if case .verdict(let result, _) = screen, let sound = result.verdict.sound { sounder.play(sound) }
        display.show(screen)
    }

    public func showPreview(_ frame: GrayFrame, status: DoorStatus) { display.showPreview(frame, status: status) }
}
