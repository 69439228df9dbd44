import CALSA
import DedicatedThreads
import Foundation
import KioskCore
import Logging

/// The verdicts' tones through ALSA. `play` only hands the tone to the sound thread and returns: the door never
/// waits for a sound. While a tone plays, the newest one asked for waits (older ones are dropped: a door
/// scanning fast hears the latest verdict, never a backlog). The device is opened on that thread at the first
/// tone; if it cannot be, the door says so once in its log and stays silent.
public final class ALSASounder: DoorSounder, @unchecked Sendable {
    private let condition = NSCondition()
    private var next: VerdictSound?
    private var silent = false
    private var playedCount = 0

    /// Tones played to the end so far.
    public var played: Int { condition.withLock { playedCount } }

    public static let rate = 48_000

    /// Starts the sound thread on `device` at `volume` (0 to 100). The thread does nothing until the first tone is
    /// asked for: the tones are made and the device opened then, so the kiosk's start (its first frames, on a
    /// 2-core box) does not share the CPU with parsing ALSA's configuration.
    public init(device: String, volume: Int, logger: Logger) {
        DedicatedThread.start(named: "kiosk-sound") { [self] in
            var pcm: OpaquePointer?
            var tones: [VerdictSound: [Int16]] = [:]
            while true {
                let sound = take()
                if pcm == nil {
                    pcm = Self.open(device, logger: logger)
                    guard pcm != nil else {
                        condition.withLock { silent = true }
                        return
                    }
                    logger.info("verdicts sound on ALSA device '\(device)'")
                }
                if tones[sound] == nil { tones[sound] = sound.samples(rate: Self.rate, volume: volume) }
                if let error = Self.write(tones[sound]!, to: pcm!) {
                    let what =
                        "a verdict's tone did not play on '\(device)': \(error); the door goes on silent until the kiosk "
                        + "restarts (check the sound card's cable and 'aplay -l', then systemctl restart kiosk)"
                    logger.warning("\(what)")
                    condition.withLock { silent = true }
                    snd_pcm_close(pcm)
                    return
                }
                condition.withLock { playedCount += 1 }
            }
        }
    }

    /// The next tone asked for, waiting for one.
    private func take() -> VerdictSound {
        condition.withLock {
            while next == nil { condition.wait() }
            defer { next = nil }
            return next!
        }
    }

    public func play(_ sound: VerdictSound) {
        condition.withLock {
            guard !silent else { return }
            next = sound
            condition.signal()
        }
    }

    /// The PCM opened for 16-bit mono playback at `rate`, or nil (said in the log).
    private static func open(_ device: String, logger: Logger) -> OpaquePointer? {
        calsa_silence_errors()
        var pcm: OpaquePointer?
        // Non-blocking open: a device another program holds fails at once instead of waiting for it.
        var status = snd_pcm_open(&pcm, device, SND_PCM_STREAM_PLAYBACK, SND_PCM_NONBLOCK)
        guard status >= 0, let pcm else {
            logger.notice(
                "no sound: ALSA could not open '\(device)' (\(text(status))); the door is silent. Set sound_device in kiosk.conf ('aplay -L' lists the devices), or sound = off"
            )
            return nil
        }
        status = snd_pcm_nonblock(pcm, 0)
        if status >= 0 {
            // Resampled by ALSA if the device wants another rate; 100 ms of latency.
            status = snd_pcm_set_params(
                pcm, SND_PCM_FORMAT_S16_LE, SND_PCM_ACCESS_RW_INTERLEAVED, 1, UInt32(rate), 1, 100_000)
        }
        guard status >= 0 else {
            let what =
                "no sound: ALSA device '\(device)' refused 16-bit mono playback (\(text(status))); the door is silent. "
                + "A 'hw:' device takes only its own formats: name the card's 'plughw:' device in sound_device, which converts"
            logger.notice("\(what)")
            snd_pcm_close(pcm)
            return nil
        }
        return pcm
    }

    /// Plays `samples` to the end; an error's text if the device failed for good.
    private static func write(_ samples: [Int16], to pcm: OpaquePointer) -> String? {
        var offset = 0
        while offset < samples.count {
            let written = samples.withUnsafeBufferPointer { buffer in
                snd_pcm_writei(pcm, buffer.baseAddress! + offset, snd_pcm_uframes_t(samples.count - offset))
            }
            if written < 0 {
                // An underrun or a suspend is recovered from; anything else ends the sound.
                let recovered = snd_pcm_recover(pcm, Int32(written), 1)
                if recovered < 0 { return text(recovered) }
                continue
            }
            offset += written
        }
        let drained = snd_pcm_drain(pcm)
        if drained < 0 { return text(drained) }
        let prepared = snd_pcm_prepare(pcm)
        return prepared < 0 ? text(prepared) : nil
    }

    private static func text(_ status: Int32) -> String { String(cString: snd_strerror(status)) }
}
