import GrayImage
import PassFormat
import SignedRecords

import struct Foundation.Date

/// From a frame (or a typed code) to a verdict: decode, validate, look up, record, decide.
///
/// A check-in is written locally and queued before its verdict is returned, so whatever the screen
/// shows is already on disk.
public final class DoorPipeline {
    public struct Settings: Sendable {
        public var door: String
        public var mode: CheckInMode
        /// Seconds a code must be out of sight before it is processed again.
        public var repeatWindow: Double

        public init(door: String, mode: CheckInMode = .auto, repeatWindow: Double = 3) {
            self.door = door
            self.mode = mode
            self.repeatWindow = repeatWindow
        }
    }

    public var settings: Settings {
        didSet { repeats.window = settings.repeatWindow }
    }
    public let decoder: any FrameDecoder
    public let validator: PassValidator
    public let store: any DoorStore
    private var repeats: RepeatFilter
    /// The server requires a newer kiosk for the event: every scan gets `updateRequired` (set by the sync
    /// worker's news; cleared when the server accepts this version again).
    public var updateRequired = false
    /// Confirm mode: the guest on screen waiting for Enter.
    public private(set) var pending: (guest: RosterGuest, source: ScanSource, payload: String)?

    public init(settings: Settings, decoder: any FrameDecoder, validator: PassValidator, store: any DoorStore) {
        self.settings = settings
        self.decoder = decoder
        self.validator = validator
        self.store = store
        self.repeats = RepeatFilter(window: settings.repeatWindow)
    }

    /// Decodes a frame and decides on each new code in it (codes still in view are skipped).
    public func process(_ frame: GrayFrame, at time: Date, effort: DecodeEffort = .thorough) -> [ScanResult] {
        lastCodes = decoder.decode(frame, effort: effort)
        return lastCodes.compactMap { check(code: $0.payload, at: time) }
    }

    /// The codes the last processed frame held (also those skipped as repeats): a code is in view.
    public private(set) var lastCodes: [DecodedCode] = []

    /// Decides on one scanned code; nil when the same code was just processed.
    public func check(code: [UInt8], at time: Date) -> ScanResult? {
        guard repeats.shouldProcess(code, at: time) else { return nil }
        let payload = Self.auditText(code)
        switch validator.check(payload: code) {
        case .rejected(let why):
            return finish(
                .notValidHere, at: time, source: .camera, payload: payload, guest: nil, reason: why.description)
        case .valid(let token):
            var result = decide(guest: token.guest, at: time, source: .camera, payload: payload)
            result.token = token
            return result
        }
    }

    /// Decides on a guest chosen by staff (typed code or roster search): same verdicts and write path.
    public func checkManually(guest: GuestID, at time: Date, typed: String) -> ScanResult {
        decide(guest: guest, at: time, source: .manual, payload: typed)
    }

    /// Records a typed code that matched nobody. A whole pass code is audited under its guest (a registration
    /// the door has not heard of yet is then found in the log by its guest, like a scan of its pass).
    public func reportUnknownCode(_ typed: String, at time: Date) -> ScanResult {
        let guest = GuestID(text: typed)
        if let incomplete = rosterIncomplete(at: time, source: .manual, payload: typed, guest: guest) {
            return incomplete
        }
        return finish(
            .notInRoster, at: time, source: .manual, payload: typed, guest: guest, reason: "typed code matches no guest"
        )
    }

    /// Confirm mode: commits the guest on screen; `arrived` defaults to the party size.
    public func confirmPending(arrived: Int?, at time: Date) -> ScanResult? {
        guard let p = pending else { return nil }
        pending = nil
        let count = arrived ?? p.guest.partySize
        return commit(
            p.guest, arrived: count, at: time, source: p.source, payload: p.payload,
            reason: "confirmed by staff, \(count) of \(p.guest.partySize) arrived")
    }

    /// Confirm mode: staff pressed Esc. Audited; nothing is checked in.
    public func cancelPending(at time: Date) {
        guard let p = pending else { return }
        pending = nil
        try? store.audit(
            ScanAttempt(
                at: time, door: settings.door, source: p.source, payload: p.payload,
                guest: p.guest.guest, verdict: "confirmation_cancelled", reason: "staff cancelled"))
    }

    /// Undoes one of the door's last check-ins, chosen by staff (a mistaken admit): the local check-in goes, a
    /// revert is queued for the server, the guest's pass admits again. Nil when that check-in is no longer the
    /// guest's check-in here (nothing changed).
    public func undo(_ recent: RecentCheckIn, at time: Date) -> ScanResult? {
        let reason = "staff undid the check-in made at \(recent.checkIn.at) (queue item \(recent.sequence))"
        let attempt = ScanAttempt(
            at: time, door: settings.door, source: .manual, payload: "undo:\(recent.guest.guest.text)",
            guest: recent.guest.guest, verdict: Verdict.checkInUndone(recent.guest.summary).name, reason: reason)
        do {
            switch try store.revert(recent, attempt: attempt) {
            case .reverted:
                return ScanResult(
                    verdict: .checkInUndone(recent.guest.summary), at: time, source: .manual, auditReason: reason)
            case .notCheckedInHere:
                return nil
            }
        } catch {
            return ScanResult(verdict: .recordFailed("\(error)"), at: time, source: .manual, auditReason: "\(error)")
        }
    }

    /// The `rosterIncomplete` verdict while the first roster download has not finished, else nil.
    private func rosterIncomplete(
        at time: Date, source: ScanSource, payload: String, guest: GuestID?
    ) -> ScanResult? {
        let progress: RosterProgress?
        do {
            progress = try store.incompleteRoster(event: validator.event)
        } catch {
            return ScanResult(verdict: .recordFailed("\(error)"), at: time, source: source, auditReason: "\(error)")
        }
        guard let progress else { return nil }
        return finish(
            .rosterIncomplete(progress), at: time, source: source, payload: payload, guest: guest,
            reason: "roster download incomplete (\(progress.fetched) of \(progress.total.map(String.init) ?? "?"))")
    }

    /// Decides again on a camera scan that got `notInRoster`, after a roster refresh: nil (and nothing audited)
    /// while the guest is still not on the roster; otherwise the verdict as if scanned now.
    public func decideAgain(guest id: GuestID, at time: Date, payload: String) -> ScanResult? {
        guard (try? store.lookUp(guest: id, event: validator.event)) != .notFound else { return nil }
        return decide(guest: id, at: time, source: .camera, payload: payload)
    }

    private func decide(guest id: GuestID, at time: Date, source: ScanSource, payload: String) -> ScanResult {
        if updateRequired {
            return finish(
                .updateRequired, at: time, source: source, payload: payload, guest: id,
                reason: "the server requires a newer kiosk for this event")
        }
        if let incomplete = rosterIncomplete(at: time, source: source, payload: payload, guest: id) {
            return incomplete
        }
        let lookup: RosterLookup
        do {
            lookup = try store.lookUp(guest: id, event: validator.event)
        } catch {
            return ScanResult(verdict: .recordFailed("\(error)"), at: time, source: source, auditReason: "\(error)")
        }
        switch lookup {
        case .notFound:
            return finish(
                .notInRoster, at: time, source: source, payload: payload, guest: id, reason: "guest not in local roster"
            )
        case .cancelled(let g):
            return finish(
                .cancelled(g?.summary), at: time, source: source, payload: payload, guest: id,
                reason: "registration cancelled")
        case .checkedIn(let g, let earlier):
            return finish(
                .alreadyCheckedIn(g.summary, at: earlier.at, door: earlier.door), at: time, source: source,
                payload: payload, guest: id, reason: "already checked in at \(earlier.door)")
        case .doubleEntry(let g, let earlier):
            return finish(
                .alreadyCheckedIn(g.summary, at: earlier.at, door: earlier.door, doubleEntry: true), at: time,
                source: source, payload: payload, guest: id,
                reason: "double entry: checked in at \(earlier.door), admitted here too")
        case .admissible(let g):
            switch settings.mode {
            case .auto:
                return commit(g, arrived: g.partySize, at: time, source: source, payload: payload, reason: "valid pass")
            case .confirm:
                pending = (g, source, payload)
                return finish(
                    .awaitingConfirmation(g.summary), at: time, source: source, payload: payload, guest: id,
                    reason: "awaiting staff confirmation")
            }
        }
    }

    private func commit(
        _ g: RosterGuest, arrived: Int, at time: Date, source: ScanSource, payload: String,
        reason: String
    ) -> ScanResult {
        let checkIn = CheckIn(
            guest: g.guest, event: g.event, door: settings.door, at: time, arrived: arrived, source: source)
        let attempt = ScanAttempt(
            at: time, door: settings.door, source: source, payload: payload, guest: g.guest,
            verdict: "admitted", reason: reason)
        do {
            switch try store.record(checkIn: checkIn, attempt: attempt) {
            case .recorded:
                return ScanResult(
                    verdict: .admitted(g.summary, arrived: arrived), at: time, source: source, auditReason: reason)
            case .alreadyRecorded(let earlier):
                // Another writer got there first; the store has audited this attempt itself.
                return ScanResult(
                    verdict: .alreadyCheckedIn(g.summary, at: earlier.at, door: earlier.door), at: time,
                    source: source, auditReason: "already checked in at \(earlier.door)")
            }
        } catch {
            return ScanResult(verdict: .recordFailed("\(error)"), at: time, source: source, auditReason: "\(error)")
        }
    }

    private func finish(
        _ verdict: Verdict, at time: Date, source: ScanSource, payload: String, guest: GuestID?,
        reason: String
    ) -> ScanResult {
        let attempt = ScanAttempt(
            at: time, door: settings.door, source: source, payload: payload, guest: guest,
            verdict: verdict.name, reason: reason)
        do {
            try store.audit(attempt)
        } catch {
            // The verdict stands (nothing was checked in); the operator learns the log is failing.
            return ScanResult(
                verdict: verdict, at: time, source: source, auditReason: "\(reason); audit not written: \(error)")
        }
        return ScanResult(verdict: verdict, at: time, source: source, auditReason: reason)
    }

    /// What the audit log keeps of a scanned code: printable text, at most 200 characters.
    static func auditText(_ code: [UInt8]) -> String {
        let printable = code.prefix(200).map { $0 >= 0x20 && $0 < 0x7F ? Character(UnicodeScalar($0)) : "?" }
        return String(printable) + (code.count > 200 ? "...(\(code.count) bytes)" : "")
    }
}
