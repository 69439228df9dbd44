import CheckinCore
import Cryptography
import Foundation
import Metrics
import Prometheus

/// The server's figures for `GET /metrics` (Prometheus text format): swift-metrics' API on a Prometheus registry
/// of this server's own (no process-wide bootstrap, so every server in a test process has its own). The route
/// answers only a scraper that sends the metrics token (`serve --metrics-token-file`), which no other route takes.
public struct ServerMetrics: Sendable {
    public let registry: PrometheusCollectorRegistry
    let factory: PrometheusMetricsFactory
    /// SHA-256 of the token, compared in constant time.
    let tokenHash: [UInt8]

    /// Sync latency, from the scan at the door (its corrected time) to its arrival here: offline doors make
    /// minutes and hours, not milliseconds.
    static let syncLatencyBuckets: [Duration] = [1, 5, 15, 60, 300, 900, 3600, 14_400, 86_400].map { .seconds($0) }

    public init(token: String) {
        registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.durationHistogramBuckets = ["checkin_sync_latency_seconds": Self.syncLatencyBuckets]
        self.factory = factory
        tokenHash = SHA256.hash(Array(token.utf8))
    }

    /// True when `token` is the metrics token.
    func admits(_ token: String) -> Bool {
        let hash = SHA256.hash(Array(token.utf8))
        return hash.count == tokenHash.count && zip(hash, tokenHash).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }

    /// One uploaded item's answer (applied, recorded, superseded, rejected).
    func checkInIngested(outcome: String) {
        Counter(label: "checkin_checkins_ingested_total", dimensions: [("outcome", outcome)], factory: factory)
            .increment()
    }

    /// The time from a scan at the door to its arrival at the server.
    func syncLatency(_ seconds: Double) {
        Timer(label: "checkin_sync_latency_seconds", factory: factory).recordSeconds(max(0, seconds))
    }

    /// One request's duration, by method, matched route (never the raw path: ids would make a series each) and
    /// status.
    func request(method: String, route: String, status: Int, seconds: Double) {
        Timer(
            label: "checkin_http_request_duration_seconds",
            dimensions: [("method", method), ("route", route), ("status", String(status))], factory: factory
        ).recordSeconds(seconds)
    }

    /// One step of a pass issuance ran: the step the issuance is at now, and whether the step failed.
    func issuanceStep(nowAt step: String, failed: Bool) {
        Counter(
            label: "checkin_issuance_steps_total", dimensions: [("now_at", step), ("failed", failed ? "yes" : "no")],
            factory: factory
        ).increment()
    }

    /// One offline-alert delivery attempt, by channel and the state it left the delivery in.
    func alertDelivery(channel: String, state: String) {
        Counter(
            label: "checkin_alert_deliveries_total", dimensions: [("channel", channel), ("state", state)],
            factory: factory
        ).increment()
    }

    /// The devices by state: revoked, else live, stale, offline or never seen by their last contact (the sync
    /// monitor's pills). Every state is set, a zero too, so a state that empties does not keep its old count.
    func devices(_ devices: [Device], now: Date) {
        var counts = ["revoked": 0]
        for health in [DeviceHealth.live, .stale, .offline, .neverSeen] { counts[health.rawValue] = 0 }
        for device in devices {
            let state = device.revoked ? "revoked" : DeviceHealth(lastSeen: device.lastSeenAt, now: now).rawValue
            counts[state, default: 0] += 1
        }
        for (state, count) in counts {
            Gauge(label: "checkin_devices", dimensions: [("state", state)], factory: factory).record(count)
        }
    }

    /// The text a scrape reads.
    func emit() -> [UInt8] { registry.emitToBuffer() }
}
