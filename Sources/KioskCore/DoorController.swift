import GrayImage
import PassFormat
import SignedRecords

import struct Foundation.Date

/// The door's event loop state: frames and keys in, screens out.
///
/// Staff can type at any time: a confirmation code or the start of a name or e-mail, then Enter. Several
/// matches are listed numbered; a digit picks one. In confirm mode, a guest on screen waits for Enter
/// (digits first set how many arrived), Esc cancels. Ctrl-U lists the door's last check-ins; a digit undoes
/// one (a mistaken admit).
public final class DoorController {
    public let pipeline: DoorPipeline
    public let display: any StatusDisplay
    public var status: DoorStatus
    private var query = ""
    private var matches: [RosterGuest] = []
    private var arrivedTyped = ""
    /// Staff pressed the undo key: the check-ins offered, newest first (nil when not undoing).
    private var undoList: [RecentCheckIn]?
    public static let maximumMatches = 9
    /// How many of the door's last check-ins the undo key offers.
    public static let undoableCheckIns = 5

    public init(pipeline: DoorPipeline, display: any StatusDisplay, status: DoorStatus) {
        self.pipeline = pipeline
        self.display = display
        self.status = status
    }

    public func start() { display.show(.ready(status)) }

    /// Runs one frame through the pipeline and shows each verdict.
    @discardableResult
    public func handle(frame: GrayFrame, at time: Date, effort: DecodeEffort = .thorough) -> [ScanResult] {
        let results = pipeline.process(frame, at: time, effort: effort)
        results.forEach(show)
        if !results.isEmpty { lastVerdictAt = time }
        return results
    }

    /// When the last verdict (or confirmation, or manual-entry screen) went up: the live picture waits
    /// `verdictHold` seconds before it replaces it.
    public private(set) var lastVerdictAt: Date?
    public var verdictHold = 3.0

    /// Shows the live camera picture between guests: not over a verdict still on screen, a pending
    /// confirmation, or staff typing.
    public func showPreview(_ frame: GrayFrame, at time: Date) {
        guard pipeline.pending == nil, query.isEmpty, matches.isEmpty, undoList == nil else { return }
        if let shown = lastVerdictAt, time.timeIntervalSince(shown) < verdictHold, time >= shown { return }
        if lastVerdictAt != nil {
            // The verdict has been up long enough: back to the ready screen, then the picture.
            lastVerdictAt = nil
            display.show(.ready(status))
        }
        display.showPreview(frame, status: status)
    }

    /// Puts the ready screen back (after a camera state change, say).
    public func showReady() {
        guard pipeline.pending == nil, query.isEmpty, matches.isEmpty, undoList == nil else { return }
        display.show(.ready(status))
    }

    /// The status line changed (news from the sync worker): redraws the ready screen with it, unless a verdict
    /// is still held on screen, a guest waits for confirmation or staff are typing. Those screens show the new
    /// status when they end.
    public func statusChanged(at time: Date) {
        if let shown = lastVerdictAt, time >= shown, time.timeIntervalSince(shown) < verdictHold { return }
        showReady()
    }

    /// Shows the verdict on a scan decided again after a roster refresh (see `DoorPipeline.decideAgain`).
    @discardableResult
    public func decideAgain(guest: GuestID, at time: Date, payload: String) -> ScanResult? {
        guard pipeline.pending == nil, let result = pipeline.decideAgain(guest: guest, at: time, payload: payload)
        else { return nil }
        show(result)
        return result
    }

    /// Handles one key; returns the verdict it produced, if any.
    @discardableResult
    public func handle(key: KeyEvent, at time: Date) -> ScanResult? {
        if let waiting = pipeline.pending {
            switch key {
            case .enter:
                let result = pipeline.confirmPending(arrived: Int(arrivedTyped), at: time)
                arrivedTyped = ""
                result.map(show)
                return result
            case .escape:
                pipeline.cancelPending(at: time)
                arrivedTyped = ""
                display.show(.ready(status))
            case .backspace:
                if !arrivedTyped.isEmpty { arrivedTyped.removeLast() }
                display.show(.confirm(waiting.guest.summary, arrived: arrivedTyped))
            case .character(let c) where c.isASCII && c.isNumber && arrivedTyped.count < 3:
                arrivedTyped.append(c)
                display.show(.confirm(waiting.guest.summary, arrived: arrivedTyped))
            case .character, .refreshRoster, .undo:
                break
            }
            return nil
        }
        if undoList != nil { return handle(undoKey: key, at: time) }
        switch key {
        case .escape:
            query = ""
            matches = []
            display.show(.ready(status))
        case .backspace:
            if !query.isEmpty { query.removeLast() }
            matches = []
            display.show(query.isEmpty ? .ready(status) : .manualEntry(query: query, matches: [], message: nil))
        case .character(let c):
            if query.isEmpty, !matches.isEmpty, let n = c.wholeNumberValue, n >= 1, n <= matches.count {
                let chosen = matches[n - 1]
                matches = []
                return finish(pipeline.checkManually(guest: chosen.guest, at: time, typed: "pick:\(chosen.guest.text)"))
            }
            matches = []
            query.append(c)
            display.show(.manualEntry(query: query, matches: [], message: nil))
        case .enter:
            return submit(at: time)
        case .refreshRoster:
            break  // the door loop asks the sync worker
        case .undo:
            query = ""
            matches = []
            showUndoList(message: nil)
        }
        return nil
    }

    /// The undo screen: the door's last check-ins, a digit undoes one, Esc leaves.
    private func showUndoList(message: String?) {
        do {
            let list = try pipeline.store.recentCheckIns(
                event: pipeline.validator.event, door: pipeline.settings.door, limit: Self.undoableCheckIns)
            undoList = list
            let keys =
                list.isEmpty
                ? "No check-in at this door to undo. Esc to go back"
                : "Press 1-\(list.count) to undo that check-in, Esc to keep them all"
            display.show(.undo(list, message: [message, keys].compactMap { $0 }.joined(separator: ". ")))
        } catch {
            undoList = []
            display.show(.undo([], message: "Cannot read the last check-ins: \(error). Esc to go back"))
        }
    }

    private func handle(undoKey key: KeyEvent, at time: Date) -> ScanResult? {
        switch key {
        case .escape, .undo:
            undoList = nil
            display.show(.ready(status))
        case .character(let c):
            guard let list = undoList, let n = c.wholeNumberValue, n >= 1, n <= list.count else { return nil }
            guard let result = pipeline.undo(list[n - 1], at: time) else {
                showUndoList(message: "\(list[n - 1].guest.name) is no longer checked in here: nothing undone")
                return nil
            }
            return finish(result)
        case .enter, .backspace, .refreshRoster:
            break
        }
        return nil
    }

    private func submit(at time: Date) -> ScanResult? {
        let typed = query.trimmingCharacters(in: " ")
        query = ""
        guard !typed.isEmpty else {
            display.show(.ready(status))
            return nil
        }
        let store = pipeline.store
        let event = pipeline.validator.event
        do {
            let code = GuestID.normalizedCode(typed)
            if code.count >= 6, code.utf8.allSatisfy(Base32.isAlphabet) {
                let hits = try store.guests(codePrefix: code, event: event, limit: Self.maximumMatches + 1)
                if hits.count == 1 {
                    return finish(pipeline.checkManually(guest: hits[0].guest, at: time, typed: typed))
                }
                if hits.count > 1 { return list(hits, for: typed) }
                if typed.contains(where: \.isNumber) {  // a code with digits cannot be a name
                    return finish(pipeline.reportUnknownCode(typed, at: time))
                }
            }
            let hits = try store.searchGuests(prefix: typed, event: event, limit: Self.maximumMatches + 1)
            if hits.count == 1 { return finish(pipeline.checkManually(guest: hits[0].guest, at: time, typed: typed)) }
            if hits.isEmpty { return finish(pipeline.reportUnknownCode(typed, at: time)) }
            return list(hits, for: typed)
        } catch {
            display.show(.manualEntry(query: typed, matches: [], message: "Roster search failed: \(error)"))
            return nil
        }
    }

    private func list(_ hits: [RosterGuest], for typed: String) -> ScanResult? {
        matches = Array(hits.prefix(Self.maximumMatches))
        let more = hits.count > Self.maximumMatches ? "More than \(Self.maximumMatches) match: type more. " : ""
        display.show(
            .manualEntry(
                query: typed, matches: matches, message: more + "Press 1-\(matches.count) to choose, Esc to clear"))
        return nil
    }

    private func finish(_ result: ScanResult) -> ScanResult {
        show(result)
        return result
    }

    private func show(_ result: ScanResult) {
        lastVerdictAt = result.at
        undoList = nil
        // The check-in (or its revert) was queued before this verdict: the status line counts it at once.
        switch result.verdict {
        case .admitted, .checkInUndone: status.pendingCheckIns += 1
        default: break
        }
        if case .awaitingConfirmation(let g) = result.verdict {
            arrivedTyped = ""
            display.show(.confirm(g, arrived: ""))
        } else {
            display.show(.verdict(result, status))
        }
    }
}
