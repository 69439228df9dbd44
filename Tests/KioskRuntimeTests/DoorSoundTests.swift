import DedicatedThreads
import Foundation
import KioskCore
import KioskRuntime
import KioskStore
import TestSupport
import Testing

/// The live kiosk sounds each verdict through the real libasound: an ALSA `file` device (defined in the kiosk's
/// ~/.asoundrc, as a venue would define any device) records what it played, and the recording's notes are the
/// verdicts' tones in the order the guests came.
@Suite struct DoorSoundTests {
    @Test func eachVerdictSoundsItsToneAndADoorWithoutADeviceStillDecides() async throws {
        try await withTaskExecutorPreference(ThreadExecutor.blockingWaits) {
            let folder = try await LiveKioskTests.liveDoor()
            let recording = folder + "/played.raw"
            try FileManager.default.createDirectory(atPath: folder + "/home", withIntermediateDirectories: true)
            try """
            pcm.doortest {
                type file
                slave.pcm "null"
                file "\(recording)"
                format "raw"
            }
            """.write(toFile: folder + "/home/.asoundrc", atomically: true, encoding: .utf8)
            let conf = folder + "/kiosk.conf"
            let base = try String(contentsOfFile: conf, encoding: .utf8)
            try base.replacingOccurrences(of: "sound_device = default", with: "sound_device = doortest")
                .replacingOccurrences(of: "sound_volume = 60", with: "sound_volume = 80")
                .write(toFile: conf, atomically: true, encoding: .utf8)
            let store = try SQLiteDoorStore(configuration: ConfigurationFile.load(conf), mode: .openExisting)
            let typed = try store.searchGuests(prefix: "", event: .init(4711), limit: 300).filter {
                $0.status == .active
            }
            .last!

            // The camera admits the replayed pass; the typed guest is admitted, then already checked in; a code
            // nobody has is refused. Each next guest comes once the last tone has played, as at a door (a tone
            // asked for while another plays replaces any waiting one: the door never plays a backlog).
            let run = try KioskRun(conf, home: folder + "/home")
            var heard = 0
            var ends: [Int] = []
            func played(_ sound: VerdictSound) -> Bool {
                heard += sound.samples(rate: 48_000, volume: 80).count * 2
                ends.append(heard)
                return eventuallyBlocking(within: .seconds(20), every: .milliseconds(10)) {
                    (try? FileManager.default.attributesOfItem(atPath: recording)[.size] as? Int) == heard
                }
            }
            #expect(run.text.wait(timeout: 60) { $0.contains("WELCOME") }, "\(run.text.text)")
            #expect(played(.admitted))
            run.type(typed.guest.displayCode)
            #expect(run.text.wait(timeout: 60) { Self.count("WELCOME", in: $0) == 2 }, "\(run.text.text)")
            #expect(played(.admitted))
            run.type(typed.guest.displayCode)
            #expect(run.text.wait(timeout: 60) { $0.contains("ALREADY CHECKED IN") }, "\(run.text.text)")
            #expect(played(.alreadyCheckedIn))
            run.type("NOBODY-HAS-THIS")
            #expect(run.text.wait(timeout: 60) { $0.contains("NOT IN ROSTER") }, "\(run.text.text)")
            #expect(played(.refused))
            let screen = try run.stop()
            #expect(screen.contains("verdicts sound on ALSA device 'doortest'"), "\(screen)")

            // The device plays the tones back to back: each is cut out at the length the door reached after it.
            let recorded = try Data(contentsOf: URL(fileURLWithPath: recording))
            let tones = zip([0] + ends, ends).map { Self.notes(in: recorded.subdata(in: $0..<$1), rate: 48_000) }
            #expect(tones == [[880, 1320], [880, 1320], [660, 660], [220]], "heard \(tones)")

            // No such device: the door says so once and decides as before, silently.
            try base.replacingOccurrences(of: "sound_device = default", with: "sound_device = no-such-device")
                .write(toFile: conf, atomically: true, encoding: .utf8)
            let silent = try KioskRun(conf, home: folder + "/home")
            silent.type(typed.guest.displayCode)
            #expect(silent.text.wait(timeout: 60) { $0.contains("ALREADY CHECKED IN") }, "\(silent.text.text)")
            // The device is opened at the first tone: the door says so then.
            #expect(silent.text.wait(timeout: 60) { $0.contains("no sound") }, "\(silent.text.text)")
            let said = try silent.stop()
            #expect(said.contains("no sound: ALSA could not open 'no-such-device'"), "\(said)")
            #expect(Self.count("no sound", in: said) == 1)
        }
    }

    static func count(_ word: String, in text: String) -> Int { text.components(separatedBy: word).count - 1 }

    /// The notes of a 16-bit mono recording, each as the nearest of the tones' frequencies found in it by
    /// Goertzel's algorithm (a note is a run of sound between silences of at least 20 ms).
    static func notes(in data: Data, rate: Int) -> [Int] {
        let samples = data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        let candidates = [220.0, 660, 880, 1320]
        var notes: [Int] = []
        var start: Int?
        var quiet = 0
        func finish(_ end: Int) {
            guard let s = start, end - s > rate / 50 else { return }
            let note = samples[s..<end].map(Double.init)
            let strongest = candidates.max { Self.power(note, $0, rate) < Self.power(note, $1, rate) }!
            notes.append(Int(strongest))
        }
        for (i, sample) in samples.enumerated() {
            if abs(Int(sample)) > 50 {
                if start == nil { start = i }
                quiet = 0
            } else if start != nil {
                quiet += 1
                if quiet > rate / 50 {
                    finish(i - quiet)
                    start = nil
                }
            }
        }
        finish(samples.count)
        return notes
    }

    static func power(_ x: [Double], _ hertz: Double, _ rate: Int) -> Double {
        let coefficient = 2 * cos(2 * Double.pi * hertz / Double(rate))
        var (s1, s2) = (0.0, 0.0)
        for v in x { (s1, s2) = (v + coefficient * s1 - s2, s1) }
        return s1 * s1 + s2 * s2 - coefficient * s1 * s2
    }
}

/// A live kiosk process with HOME set (where ALSA reads ~/.asoundrc), its keyboard and its screen.
private final class KioskRun {
    let process: Process
    let input = Pipe()
    let text: PipeText

    init(_ conf: String, home: String) throws {
        let errors = Pipe()
        process = try ChildProcess.start(
            "kiosk", ["--config", conf], environment: ["HOME": home], input: input, errors: errors)
        text = PipeText(errors)
    }

    func type(_ line: String) { input.fileHandleForWriting.write(Data((line + "\n").utf8)) }

    /// Stops it as systemd would (SIGTERM) and returns all it wrote.
    func stop() throws -> String {
        process.terminate()
        process.waitUntilExit()
        let screen = text.whole()
        #expect(process.terminationReason == .exit && process.terminationStatus == 0, "\(screen)")
        return screen
    }
}
