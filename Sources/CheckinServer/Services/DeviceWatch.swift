import CheckinAdmin
import CheckinCore
import Foundation
import Logging
import ServiceLifecycle

/// The offline alerts' service: every `interval` it looks at the devices of each event whose alerts are on
/// (`OfflineWatch`), records each new silence and each return once (of several server processes, one records
/// it), and sends the alerts due. Tests call `check()` and `sendDue()` with a manual clock.
public struct DeviceWatch: Service {
    public let repository: any CheckinRepository
    public let sender: OfflineAlertSender
    public let clock: any ServerClock
    public let interval: Duration
    /// Deliveries sent at once (`EdgeLimits.alertDeliveriesAtOnce`): a receiver that never answers holds one
    /// sender for its timeout, not every tenant's alerts.
    public let deliveriesAtOnce: Int
    public let logger: Logger
    /// Counts each delivery attempt for `GET /metrics`; nil: not counted.
    public var metrics: ServerMetrics?

    public init(
        repository: any CheckinRepository, sender: OfflineAlertSender, clock: any ServerClock = SystemServerClock(),
        interval: Duration = .seconds(30), deliveriesAtOnce: Int = EdgeLimits().alertDeliveriesAtOnce,
        logger: Logger = Logger(label: "device-watch")
    ) {
        self.repository = repository
        self.sender = sender
        self.clock = clock
        self.interval = interval
        self.deliveriesAtOnce = max(1, deliveriesAtOnce)
        self.logger = logger
    }

    /// Records the episodes that started and ended since the last look; returns the alerts queued.
    @discardableResult
    public func check() async throws -> [AlertDelivery] {
        let now = clock.now()
        var queued: [AlertDelivery] = []
        for (event, settings) in try await repository.eventsWithOfflineAlerts() {
            let open = try await repository.openOfflineEpisodes(event: event.id)
            // Outside the event's window only returns are looked for: nothing to do without an open episode.
            guard OfflineWatch.watches(event, at: now) || !open.isEmpty else { continue }
            let devices = try await repository.devices(event: event.id)
            let (started, ended) = OfflineWatch.changes(event: event, devices: devices, open: open, now: now)
            for episode in ended {
                let deliveries = settings.deliveries(for: episode, kind: .backOnline, at: now)
                if try await repository.endOfflineEpisode(episode, deliveries: deliveries) {
                    logger.info("event \(event.id): \(episode.door) (\(episode.device)) is back online")
                    queued += deliveries
                }
            }
            for episode in started {
                let deliveries = settings.deliveries(for: episode, kind: .offline, at: now)
                if try await repository.recordOfflineEpisode(episode, deliveries: deliveries) {
                    logger.warning(
                        "event \(event.id): \(episode.door) (\(episode.device)) offline since \(episode.lastSeenAt)")
                    queued += deliveries
                }
            }
        }
        return queued
    }

    /// Sends every alert due, `deliveriesAtOnce` at a time (each sender takes the next one due as it is
    /// free); returns them as stored after their attempt.
    @discardableResult
    public func sendDue() async throws -> [AlertDelivery] {
        let now = clock.now()
        let (repository, sender, logger, metrics) = (repository, sender, logger, metrics)
        return try await withThrowingTaskGroup(of: [AlertDelivery].self) { group in
            for _ in 0..<deliveriesAtOnce {
                group.addTask {
                    var sent: [AlertDelivery] = []
                    while let delivery = try await repository.runNextAlertDelivery(
                        now: now, { delivery in await sender.send(delivery, now: now) })
                    {
                        metrics?.alertDelivery(channel: delivery.channel.rawValue, state: delivery.state.rawValue)
                        if let error = delivery.lastError {
                            logger.warning(
                                "alert \(delivery.id) to \(delivery.target): \(delivery.state.rawValue): \(error)")
                        }
                        sent.append(delivery)
                    }
                    return sent
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
    }

    public func run() async throws {
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            do {
                try await check()
                try await sendDue()
            } catch is CancellationError {
                return
            } catch {
                // The database went away for a moment: say so, look again at the next interval.
                logger.error("device watch: \(error)")
            }
            do { try await sleepUntilShutdown(for: interval) } catch { return }
        }
    }
}
