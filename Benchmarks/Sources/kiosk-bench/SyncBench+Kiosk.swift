import CheckinCore
import Foundation
import KioskCore
import KioskStore
import KioskSync
import PassFormat
import WireAPI

/// One kiosk's exchanges with the server: the first download, a delta, a flush of its queue.
extension SyncBench {
    /// (a) `RosterDownloader.refresh` on a freshly enrolled kiosk, beside fetching the same pages without
    /// applying them. Returns the last kiosk, its roster complete.
    func firstDownload(_ server: BenchServer, event: EventID, folder: String) async throws -> BenchKiosk {
        var fetchOnly: [Double] = []
        var total: [Double] = []
        var waiting: [Double] = []
        var applyOnly: [Double] = []
        var kiosk: BenchKiosk?
        for round in 0..<downloadRounds {
            await kiosk?.shutdown()
            progress("first download, round \(round + 1) of \(downloadRounds)")
            let fresh = try await BenchKiosk(
                path: folder + "/download-\(round).db", server: server, url: server.urls[0], event: event,
                door: "North")
            var fetched = 0
            let recorded = RecordedRosterSource()
            fetchOnly.append(
                try await Stopwatch.seconds {
                    var page: String?
                    repeat {
                        let exchange = try await fresh.client.rosterPage(
                            event: event.rawValue, page: page, changesSince: nil)
                        recorded.record(exchange, page: page)
                        fetched += exchange.answer.guests.count
                        page = exchange.answer.nextPage
                    } while page != nil
                })
            // The same pages from memory into a store of their own: the kiosk's side alone, no server or HTTP.
            let alone = try SQLiteDoorStore(
                path: folder + "/apply-\(round).db", mode: .createIfMissing, key: DatabaseKey.random())
            var aloneReport = RosterReport()
            applyOnly.append(
                try await Stopwatch.seconds {
                    aloneReport = try await RosterDownloader(
                        source: recorded, tenant: fresh.enrolment.tenant, event: event, clock: SystemSyncClock()
                    ).refresh(store: alone)
                })
            guard aloneReport.applied == guests else {
                throw BenchFailure("the pages from memory are not the roster: \(aloneReport)")
            }
            let timed = TimedRosterSource(fresh.client)
            var report = RosterReport()
            total.append(
                try await Stopwatch.seconds {
                    report = try await fresh.downloader(source: timed).refresh(store: fresh.store)
                })
            waiting.append(timed.seconds)
            guard fetched == guests, report.applied == guests, report.state?.complete == true else {
                throw BenchFailure("the download is not the roster: fetched \(fetched), \(report)")
            }
            kiosk = fresh
        }
        let pages = (guests + RosterPage.maximumSize - 1) / RosterPage.maximumSize
        let t = total.median
        let f = fetchOnly.median
        print(
            "## First roster download: \(guests) guests in \(pages) pages of \(RosterPage.maximumSize), loopback HTTP")
        print("(median of \(downloadRounds), each into a freshly enrolled kiosk; seconds)\n")
        print(
            table(
                ["", "seconds", "guests/s", "vs fetching only"],
                [
                    ["download and apply (RosterDownloader.refresh)", f2(t), rate(guests, t), f2(t / f)],
                    // The next page is fetched while one is applied: time in page requests overlaps the apply.
                    ["- inside page requests (overlaps the apply)", f2(waiting.median), "", f2(waiting.median / f)],
                    [
                        "- the rest (apply not hidden by a request)", f2(t - waiting.median), "",
                        f2((t - waiting.median) / f),
                    ],
                    [
                        "the same pages from memory, applied alone", f2(applyOnly.median),
                        rate(guests, applyOnly.median), f2(applyOnly.median / f),
                    ],
                    ["baseline: fetching the pages only", f2(f), rate(guests, f), "1.00"],
                ]))
        print("\n(target: at most 3 s (issue 17); \(t <= 3 ? "met" : "NOT met"): \(f2(t)) s)\n")
        return kiosk!
    }

    /// (b) A delta of `deltaChanges` rows (half cancelled, half walk-ins added on the server) beside a delta
    /// with nothing in it.
    func delta(_ kiosk: BenchKiosk, server: BenchServer, event: EventID, pool: GuestPool) async throws {
        var empty: [Double] = []
        var full: [Double] = []
        for round in 0..<rounds {
            var report = RosterReport()
            empty.append(
                try await Stopwatch.seconds { report = try await kiosk.downloader().refresh(store: kiosk.store) })
            guard report.changes == 0 else { throw BenchFailure("the empty delta brought \(report.changes) rows") }
            let cancelled = deltaChanges / 2
            for id in try pool.take(cancelled) {
                _ = try await server.repository.cancelGuest(id, event: event, at: Date())
            }
            _ = try await Self.addGuests(
                deltaChanges - cancelled, to: server, event: event, from: 1_000_000 + round * deltaChanges)
            full.append(
                try await Stopwatch.seconds { report = try await kiosk.downloader().refresh(store: kiosk.store) })
            guard report.changes == deltaChanges else {
                throw BenchFailure("the delta brought \(report.changes) rows, not \(deltaChanges)")
            }
        }
        print("## Roster delta on the \(guests)-guest kiosk (median of \(rounds); seconds)\n")
        print(
            table(
                ["refresh", "rows", "seconds", "rows/s", "vs empty delta"],
                [
                    [
                        "delta (\(deltaChanges / 2) cancelled, \(deltaChanges - deltaChanges / 2) walk-ins)",
                        "\(deltaChanges)", f3(full.median), rate(deltaChanges, full.median),
                        f2(full.median / empty.median),
                    ],
                    ["baseline: empty delta", "0", f3(empty.median), "", "1.00"],
                ]))
        print("\n(target: under 1 s; \(full.median < 1 ? "met" : "NOT met"): \(f3(full.median)) s)\n")
    }

    /// (c) `pending` check-ins scanned at the door, then flushed (`QueueUploader.flush`, batches of 50),
    /// beside as many heartbeat round trips as batches.
    func flush(_ kiosk: BenchKiosk, pool: GuestPool) async throws {
        var flushes: [Double] = []
        var beats: [Double] = []
        let batches = (pending + CheckInBatch.maximumSize - 1) / CheckInBatch.maximumSize
        for _ in 0..<rounds {
            try kiosk.checkIn(try pool.take(pending))
            var report = SyncReport()
            flushes.append(try await Stopwatch.seconds { report = try await kiosk.flush() })
            guard report.confirmed == pending, report.batches == batches else {
                throw BenchFailure("the flush did not confirm every check-in: \(report)")
            }
            beats.append(try await Stopwatch.seconds { for _ in 0..<batches { try await kiosk.heartbeat() } })
        }
        print("## Queue flush: \(pending) pending check-ins (median of \(rounds); seconds)\n")
        print(
            table(
                ["exchange", "round trips", "seconds", "check-ins/s", "vs heartbeats"],
                [
                    [
                        "flush of \(pending) check-ins (QueueUploader)", "\(batches)", f3(flushes.median),
                        rate(pending, flushes.median), f2(flushes.median / beats.median),
                    ],
                    ["baseline: \(batches) heartbeats", "\(batches)", f3(beats.median), "", "1.00"],
                ]))
        print(
            "\nEach batch's answers and each heartbeat's contact are committed durably (synchronous=FULL) on the kiosk."
        )
        print("(target: under 2 s; \(flushes.median < 2 ? "met" : "NOT met"): \(f3(flushes.median)) s)\n")
    }
}

func rate(_ count: Int, _ seconds: Double) -> String { String(format: "%.0f", Double(count) / seconds) }
