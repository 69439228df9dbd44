import PassFormat
import SignedRecords
import Testing

import struct Foundation.Date

@testable import KioskCore

@Suite("Verdict sounds")
struct VerdictSoundTests {
    static let guest = GuestSummary(
        guest: GuestID(bytes: Array(repeating: 7, count: 10))!, name: "Ann", partySize: 1, notes: "")
    static let at = Date(timeIntervalSince1970: 1_800_000_000)

    @Test("admitted, already checked in and every refusal each have their tone; staff actions are silent")
    func mapping() {
        let g = Self.guest
        #expect(Verdict.admitted(g, arrived: 1).sound == .admitted)
        #expect(Verdict.alreadyCheckedIn(g, at: Self.at, door: "North").sound == .alreadyCheckedIn)
        #expect(Verdict.alreadyCheckedIn(g, at: Self.at, door: "North", doubleEntry: true).sound == .alreadyCheckedIn)
        let refusals: [Verdict] = [
            .notValidHere, .cancelled(g), .cancelled(nil), .notInRoster, .updateRequired, .recordFailed("disk"),
            .rosterIncomplete(RosterProgress(fetched: 1, total: 2)),
        ]
        #expect(refusals.allSatisfy { $0.sound == .refused })
        #expect(Verdict.awaitingConfirmation(g).sound == nil)
        #expect(Verdict.checkInUndone(g).sound == nil)
    }

    @Test("a tone is its notes' length with gaps, within the volume's share of full scale, and silent at 0")
    func samples() {
        for sound in VerdictSound.allCases {
            let samples = sound.samples(rate: 48_000, volume: 50)
            let seconds = sound.notes.map(\.seconds).reduce(0, +) + Double(sound.notes.count - 1) * VerdictSound.gap
            #expect(abs(samples.count - Int(seconds * 48_000)) <= sound.notes.count)
            let peak = samples.map { abs(Int($0)) }.max()!
            #expect(peak > 10_000 && peak <= Int(0.5 * 0.8 * Double(Int16.max)) + 1, "\(sound): peak \(peak)")
            // Faded in and out: no click at either end.
            #expect(abs(Int(samples.first!)) < 200 && abs(Int(samples.last!)) < 200)
            #expect(sound.samples(rate: 48_000, volume: 0).allSatisfy { $0 == 0 })
        }
        // The tones differ in pitch: a refusal's low note crosses zero far less often than an admit's.
        func crossings(_ s: [Int16]) -> Int { zip(s, s.dropFirst()).filter { ($0 < 0) != ($1 < 0) }.count }
        let low = VerdictSound.refused.samples(rate: 48_000, volume: 50)
        #expect(abs(Double(crossings(low)) / 0.35 / 2 - 220) < 10)
    }

    @Test("the sine is exact to 1e-9 over many turns")
    func sine() {
        for i in 0..<2000 {
            let x = Double(i) * 0.0173 - 15
            #expect(abs(VerdictSound.sine(x) - Self.reference(x)) < 1e-9, "x = \(x)")
        }
    }

    @Test("the sounding display plays a verdict's tone before showing it, and nothing for other screens")
    func soundingDisplay() {
        let log = Log()
        let display = SoundingDisplay(Screen(log), sounder: Speaker(log))
        let status = DoorStatus(door: "North", mode: .auto)
        display.show(.ready(status))
        display.show(.verdict(ScanResult(verdict: .notInRoster, at: Self.at, source: .manual, auditReason: ""), status))
        display.show(
            .verdict(
                ScanResult(verdict: .checkInUndone(Self.guest), at: Self.at, source: .manual, auditReason: ""), status))
        display.show(
            .verdict(
                ScanResult(verdict: .admitted(Self.guest, arrived: 1), at: Self.at, source: .camera, auditReason: ""),
                status))
        #expect(
            log.lines == [
                "show ready", "play refused", "show verdict", "show verdict", "play admitted", "show verdict",
            ])
    }

    /// sin by its Taylor series around the nearest multiple of π/2 with Double's own constants, computed apart
    /// from the code under test.
    static func reference(_ x: Double) -> Double {
        let quarter = (x / (Double.pi / 2)).rounded()
        let r = x - quarter * (Double.pi / 2)
        var sinR = 0.0
        var cosR = 0.0
        var term = 1.0
        for n in 0..<30 {
            if n > 0 { term *= r / Double(n) }
            switch n % 4 {
            case 0: cosR += term
            case 1: sinR += term
            case 2: cosR -= term
            default: sinR -= term
            }
        }
        switch ((Int(quarter) % 4) + 4) % 4 {
        case 0: return sinR
        case 1: return cosR
        case 2: return -sinR
        default: return -cosR
        }
    }
}

private final class Log {
    var lines: [String] = []
    init() {}
}

private final class Screen: StatusDisplay {
    let log: Log
    init(_ log: Log) { self.log = log }
    func show(_ screen: DoorScreen) {
        switch screen {
        case .ready: log.lines.append("show ready")
        case .verdict: log.lines.append("show verdict")
        default: log.lines.append("show other")
        }
    }
}

private final class Speaker: DoorSounder {
    let log: Log
    init(_ log: Log) { self.log = log }
    func play(_ sound: VerdictSound) { log.lines.append("play \(sound.rawValue)") }
}
