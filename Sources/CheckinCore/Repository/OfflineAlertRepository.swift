import Foundation
import PassFormat

/// Offline alerts: their settings, the episodes of doors gone quiet and the deliveries.
/// One role of `CheckinRepository`.
public protocol OfflineAlertRepository: Sendable {
    /// Replaces the event's alert settings (all fields nil: off). Throws `notFound` for an unknown event.
    func setOfflineAlerts(_ settings: OfflineAlertSettings, event: EventID, at time: Date) async throws
    /// The event's settings; all nil when never set.
    func offlineAlerts(event: EventID) async throws -> OfflineAlertSettings
    /// Every event whose alerts are on, with its settings.
    func eventsWithOfflineAlerts() async throws -> [(Event, OfflineAlertSettings)]
    /// The event's episodes not yet ended.
    func openOfflineEpisodes(event: EventID) async throws -> [OfflineEpisode]
    /// Records a new episode and queues its deliveries, in one transaction; false (nothing written) when that
    /// episode was recorded before, by this process or another.
    func recordOfflineEpisode(_ episode: OfflineEpisode, deliveries: [AlertDelivery]) async throws -> Bool
    /// Ends an open episode (its `endedAt` set) and queues its deliveries, in one transaction; false (nothing
    /// written) when it had ended already.
    func endOfflineEpisode(_ episode: OfflineEpisode, deliveries: [AlertDelivery]) async throws -> Bool
    /// Takes the pending delivery due first that no other worker holds, runs `perform` on it, stores what came
    /// of it (`AlertDelivery.after`) and returns it; nil when none is due. Like `runNextIssuanceStep`, no two
    /// workers of any process send the same delivery at once.
    func runNextAlertDelivery(now: Date, _ perform: @Sendable (AlertDelivery) async throws -> AlertDeliveryResult)
        async throws -> AlertDelivery?
    /// The event's deliveries, newest first, at most `limit`.
    func alertDeliveries(event: EventID, limit: Int) async throws -> [AlertDelivery]
}
