import KioskCore
import KioskStore
import PassFormat
import SignedRecords
import WireAPI

import struct Foundation.Data

/// Brings the kiosk's roster up to date with the server: the first download a page at a time (resuming after
/// the last page applied), then the rows changed since the change cursor. Each page is applied with the cursor
/// after it in one transaction (`SyncStore.applyRosterPage`).
public struct RosterDownloader: Sendable {
    public var source: any RosterSource
    public var tenant: TenantID
    public var event: EventID
    public var clock: any SyncClock
    /// Called after every page applied, with where the roster stands.
    public var progress: @Sendable (RosterSyncState) -> Void

    public init(
        source: any RosterSource, tenant: TenantID, event: EventID, clock: any SyncClock,
        progress: @escaping @Sendable (RosterSyncState) -> Void = { _ in }
    ) {
        self.source = source
        self.tenant = tenant
        self.event = event
        self.clock = clock
        self.progress = progress
    }

    /// Finishes the first download if it is not complete, then fetches the deltas. Throws the first failure
    /// (every page applied before it stays applied).
    public func refresh(store: some SyncStore) async throws -> RosterReport {
        var report = RosterReport()
        var state = try store.rosterSyncState(event: event) ?? RosterSyncState(event: event)
        do {
            try await download(&state, store: store, report: &report)
            try await fetchChanges(&state, store: store, report: &report)
        } catch let error as SyncError where error.kind == .server(status: 400, code: RosterPage.unknownCursor) {
            // The server does not know the cursor (its database was replaced): download the roster again.
            // Scans get `rosterIncomplete` meanwhile: nothing is decided on a roster of another database.
            try store.startRosterDownload(event: event)
            state = RosterSyncState(event: event)
            report.restarted = true
            try await download(&state, store: store, report: &report)
            try await fetchChanges(&state, store: store, report: &report)
        }
        report.state = state
        return report
    }

    /// The first download, a few pages to a transaction: the pages that follow are fetched, and made ready for
    /// the store, while these are applied (the transfer and the search keys hide behind the apply), and pages
    /// are applied only after every page before them.
    ///
    /// A transaction holds the pages fetched while the one before it was applied (at most `batchPages`, and
    /// no more than `batchTime` of fetching): every page's commit rewrote some 1,400 index pages in the WAL
    /// (names and e-mails land all over their indexes), most of them the same pages as the page before's, so a
    /// 100,000-guest download wrote a gigabyte. A download cut off resumes after the last transaction.
    func download(_ state: inout RosterSyncState, store: some SyncStore, report: inout RosterReport) async throws {
        guard !state.complete else { return }
        let first = ready(
            try await source.rosterPage(event: event.rawValue, page: state.nextPage, changesSince: nil).answer)
        var next: [ReadyPage] = [first]
        while let last = next.last {
            let batch = next
            async let following = self.pages(after: last.page)
            var rows: [PreparedRosterPage] = []
            for ready in batch {
                let page = ready.page
                if state.nextPage == nil {
                    state.changeCursor = page.changeCursor
                    state.total = page.total
                    state.fetched = 0
                }
                guard state.changeCursor != nil else { throw Self.badAnswer("the first page has no change cursor") }
                state.fetched += page.guests.count
                state.nextPage = page.nextPage
                if page.nextPage == nil {
                    state.complete = true
                    state.fetchedAt = clock.now()
                }
                report.invalid += ready.invalid
                rows.append(ready.rows)
            }
            report.add(try store.applyRosterPage(PreparedRosterPage(joining: rows), state: state, at: clock.now()))
            report.pages += batch.count
            progress(state)
            next = try await following
        }
    }

    /// Pages of a first download in one transaction, at most.
    static let batchPages = 16
    /// Fetching time after which the pages fetched so far go to the store (with a slow uplink, the download
    /// still saves where it stands every so often).
    static let batchTime = Duration.seconds(1)

    /// The first download's pages after `page`, ready for the store: as many as `batchPages` and `batchTime`
    /// allow, ending at the last page; empty after the last.
    func pages(after page: RosterPage) async throws -> [ReadyPage] {
        var pages: [ReadyPage] = []
        var cursor = page.nextPage
        let start = ContinuousClock.now
        while let next = cursor, pages.count < Self.batchPages,
            pages.isEmpty || ContinuousClock.now - start < Self.batchTime
        {
            let ready = ready(try await source.rosterPage(event: event.rawValue, page: next, changesSince: nil).answer)
            pages.append(ready)
            cursor = ready.page.nextPage
        }
        return pages
    }

    /// A page from the server with its rows as the kiosk keeps them, their search keys made.
    struct ReadyPage: Sendable {
        var page: RosterPage
        var rows: PreparedRosterPage
        /// Rows skipped because their id is not a pass code.
        var invalid: Int
    }

    func ready(_ page: RosterPage) -> ReadyPage {
        let (updates, invalid) = updates(page.guests)
        return ReadyPage(page: page, rows: PreparedRosterPage(updates, firstDownload: true), invalid: invalid)
    }

    func fetchChanges(_ state: inout RosterSyncState, store: some SyncStore, report: inout RosterReport)
        async throws
    {
        guard let since = state.changeCursor else { throw Self.badAnswer("no change cursor to fetch changes from") }
        var page: String?
        repeat {
            let answer = try await source.rosterPage(event: event.rawValue, page: page, changesSince: since).answer
            page = answer.nextPage
            if page == nil {
                guard let next = answer.changeCursor else { throw Self.badAnswer("the last delta page has no cursor") }
                state.changeCursor = next
                state.fetchedAt = clock.now()
            }
            // A delta cut between pages starts again from `since`: rows come twice, and applying one is idempotent.
            let (updates, invalid) = updates(answer.guests)
            report.invalid += invalid
            report.add(try store.applyRosterPage(PreparedRosterPage(updates), state: state, at: clock.now()))
            // The server's signed rows, kept to pass on to doors that cannot reach it (KioskPeers).
            try store.keepGuestNotices(notices(answer.guests), at: clock.now())
            report.pages += 1
            report.changes += answer.guests.count
        } while page != nil
        progress(state)
    }

    /// The server's rows as the kiosk keeps them; a row whose id is not a pass code is skipped and counted.
    func updates(_ records: [GuestRecord]) -> (updates: [RosterUpdate], invalid: Int) {
        var invalid = 0
        let updates = records.compactMap { record -> RosterUpdate? in
            guard
                let guest = RosterGuest(
                    serverRow: record.id, tenant: tenant, event: event, name: record.name, email: record.email,
                    partySize: record.partySize, ticketType: record.ticketType, checkInNote: record.checkInNote,
                    arrivalAlert: record.arrivalAlert, cancelled: record.status == .cancelled)
            else {
                invalid += 1
                return nil
            }
            let id = guest.guest
            let checkIn = record.checkIn.map {
                CheckIn(guest: id, event: event, door: $0.door, at: $0.at, arrived: max(0, $0.arrived), source: .camera)
            }
            var scan: ServerScan?
            if let deviceId = record.checkIn?.deviceId, let sequence = record.checkIn?.sequence {
                scan = ServerScan(deviceId: deviceId, sequence: sequence)
            }
            return RosterUpdate(guest: guest, version: record.version, checkIn: checkIn, checkInScan: scan)
        }
        return (updates, invalid)
    }

    /// The signed rows of a delta as notices a peer can check; unsigned rows (an older server) are left out.
    func notices(_ records: [GuestRecord]) -> [GuestNotice] {
        records.compactMap { record in
            guard let signedBy = record.signedBy, let keyID = KeyID(exactly: signedBy),
                let signature = record.signature.flatMap({ Data(base64Encoded: $0) }),
                let guest = RosterGuest(
                    serverRow: record.id, tenant: tenant, event: event, name: record.name, email: record.email,
                    partySize: record.partySize, ticketType: record.ticketType, checkInNote: record.checkInNote,
                    arrivalAlert: record.arrivalAlert, cancelled: record.status == .cancelled)
            else { return nil }
            return GuestNotice(keyID: keyID, guest: guest, version: record.version, signature: Array(signature))
        }
    }

    static func badAnswer(_ message: String) -> SyncError {
        SyncError(
            kind: .badAnswer, operation: "fetching the roster", message: message,
            advice: "check that 'server' in kiosk.conf is the check-in server and both are the same version")
    }
}

/// What a roster refresh did.
public struct RosterReport: Equatable, Sendable, CustomStringConvertible {
    public var pages = 0
    public var applied = 0
    public var older = 0
    public var protected = 0
    /// Rows of the deltas (0 when nothing changed).
    public var changes = 0
    /// Rows skipped because their id is not a pass code.
    public var invalid = 0
    /// The server did not know the change cursor: the roster was downloaded again.
    public var restarted = false
    public var state: RosterSyncState?

    public init() {}

    mutating func add(_ applied: RosterApplied) {
        self.applied += applied.applied
        older += applied.older
        protected += applied.protected
    }

    public var description: String {
        var text = "roster: \(applied) rows applied in \(pages) pages (\(changes) changed"
        if protected > 0 { text += ", \(protected) kept local until their queued check-in is answered" }
        if invalid > 0 { text += ", \(invalid) invalid rows skipped" }
        if restarted { text += ", downloaded again: the server did not know the cursor" }
        if let state {
            text += state.complete ? "); complete" : "); \(state.fetched) of \(state.total.map(String.init) ?? "?")"
        } else {
            text += ")"
        }
        return text
    }
}
