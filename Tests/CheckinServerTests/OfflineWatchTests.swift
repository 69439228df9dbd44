import CheckinCore
import Foundation
import KioskCore
import PassFormat
import Testing

/// The offline alerts' rules as values: when a silence starts an episode, when it ends, what is refused in the
/// settings, how a delivery is retried.
@Suite struct OfflineWatchTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)
    static let event = Event(
        id: EventID(1), tenant: TenantID(1), name: "Gala", startsAt: start, endsAt: start.addingTimeInterval(4 * 3600),
        graceMinutes: 60)

    static func device(_ id: String, seen: Date?, revoked: Bool = false) -> EventDevice {
        EventDevice(
            device: Device(
                id: id, tenant: TenantID(1), door: "Door \(id)", kioskVersion: "1.0.0", queueEpoch: "q",
                enrolledAt: start.addingTimeInterval(-86400), revoked: revoked, lastSeenAt: seen),
            enrolledBy: "ann@example.org")
    }

    @Test func aDeviceSilentForThirtyMinutesDuringTheEventStartsOneEpisode() {
        let seen = Self.start.addingTimeInterval(600)
        let devices = [
            Self.device("a", seen: seen),
            Self.device("never", seen: nil),
            Self.device("revoked", seen: seen, revoked: true),
            // Set up and tested the day before, not switched on since: no alert at the window's start.
            Self.device("yesterday", seen: Self.start.addingTimeInterval(-86400)),
        ]
        let at29 = OfflineWatch.changes(
            event: Self.event, devices: devices, open: [], now: seen.addingTimeInterval(29 * 60))
        #expect(at29.started.isEmpty && at29.ended.isEmpty)
        let at30 = OfflineWatch.changes(
            event: Self.event, devices: devices, open: [], now: seen.addingTimeInterval(30 * 60))
        #expect(at30.started.map(\.device) == ["a"] && at30.started[0].lastSeenAt == seen)
        // Already open for that silence: nothing new, however often it looks.
        let later = OfflineWatch.changes(
            event: Self.event, devices: devices, open: at30.started, now: seen.addingTimeInterval(50 * 60))
        #expect(later.started.isEmpty && later.ended.isEmpty)
    }

    @Test func aReportEndsTheEpisodeAndANewSilenceIsANewOne() {
        let seen = Self.start.addingTimeInterval(600)
        let open = [
            OfflineEpisode(
                event: EventID(1), device: "a", door: "Door a", lastSeenAt: seen,
                detectedAt: seen.addingTimeInterval(1800))
        ]
        let back = seen.addingTimeInterval(3600)
        let returned = OfflineWatch.changes(
            event: Self.event, devices: [Self.device("a", seen: back)], open: open, now: back.addingTimeInterval(5))
        #expect(returned.ended.map(\.endedAt) == [back] && returned.started.isEmpty)
        // Back and silent again before the watch looked: the old episode ends and a new one starts.
        let both = OfflineWatch.changes(
            event: Self.event, devices: [Self.device("a", seen: back)], open: open, now: back.addingTimeInterval(1800))
        #expect(both.ended.count == 1 && both.started.map(\.lastSeenAt) == [back])
    }

    @Test func theWindowRunsFromTwoHoursBeforeTheStartUntilTheEventCloses() {
        #expect(!OfflineWatch.watches(Self.event, at: Self.start.addingTimeInterval(-2 * 3600 - 1)))
        #expect(OfflineWatch.watches(Self.event, at: Self.start.addingTimeInterval(-2 * 3600)))
        #expect(OfflineWatch.watches(Self.event, at: Self.event.closesAt))
        #expect(!OfflineWatch.watches(Self.event, at: Self.event.closesAt.addingTimeInterval(1)))
        // Silent since before the window opened, going offline inside it: alerted.
        let seen = Self.start.addingTimeInterval(-2 * 3600 - 20 * 60)
        let now = Self.start.addingTimeInterval(-2 * 3600 + 15 * 60)
        #expect(
            OfflineWatch.changes(event: Self.event, devices: [Self.device("a", seen: seen)], open: [], now: now)
                .started.count == 1)
        // After the event closed nothing starts.
        let closed = Self.event.closesAt.addingTimeInterval(60)
        #expect(
            OfflineWatch.changes(
                event: Self.event, devices: [Self.device("a", seen: closed.addingTimeInterval(-3600))], open: [],
                now: closed
            ).started.isEmpty)
    }

    @Test func settingsRefuseWhatCannotWork() throws {
        #expect(throws: OfflineAlertSettingsError.badEmail("ops")) {
            try OfflineAlertSettings.parse(email: "ops", webhookURL: "", allowPlainHTTP: false)
        }
        for bad in ["http://example.org/hook", "ftp://example.org/x", "https:///nohost", "https://u:p@example.org/h"] {
            #expect(throws: OfflineAlertSettingsError.self, "\(bad)") {
                try OfflineAlertSettings.parse(email: "", webhookURL: bad, allowPlainHTTP: false)
            }
        }
        let plain = try OfflineAlertSettings.parse(
            email: " ops@example.org ", webhookURL: "http://10.0.0.2/hook", allowPlainHTTP: true)
        #expect(plain.email == "ops@example.org" && plain.webhookURL == "http://10.0.0.2/hook" && plain.isOn)
        #expect(try !OfflineAlertSettings.parse(email: "", webhookURL: " ", allowPlainHTTP: false).isOn)
        // A URL without its secret sends nothing (the server always makes one with the URL).
        let episode = OfflineEpisode(
            event: EventID(1), device: "a", door: "A", lastSeenAt: Self.start, detectedAt: Self.start)
        #expect(plain.deliveries(for: episode, kind: .offline, at: Self.start).map(\.channel) == [.email])
    }

    @Test func aDeliveryRetriesWithBackoffThenFails() {
        var delivery = AlertDelivery(
            id: AlertDelivery.newID(), event: EventID(1), device: "a", door: "A", kind: .offline, channel: .webhook,
            target: "https://example.org/h", lastSeenAt: Self.start, nextAttemptAt: Self.start, createdAt: Self.start)
        var now = Self.start
        var delays: [TimeInterval] = []
        while delivery.state == .pending {
            delivery = delivery.after(.retry(error: "503"), now: now)
            if delivery.state == .pending { delays.append(delivery.nextAttemptAt.timeIntervalSince(now)) }
            now = delivery.nextAttemptAt
        }
        #expect(delivery.state == .failed && delivery.attempts == AlertDelivery.maximumAttempts)
        #expect(delays == [30, 60, 120, 240, 480])
        let sent = delivery.after(.sent, now: now)
        #expect(sent.state == .sent && sent.lastError == nil && sent.sentAt == now)
        #expect(delivery.after(.fail(error: "550"), now: now).state == .failed)
    }
}
