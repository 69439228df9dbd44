import CheckinAdmin
import CheckinCore
import Foundation
import Logging
import ServiceLifecycle

/// Purges the personal data of every event whose retention has run out (`PersonalDataRetention`): at start, then
/// every `interval`. Each purge is one transaction of the store, then the event's pass images are deleted from
/// the pass folder, then the purge is audited (what was removed, not what it was).
public struct PersonalDataPurgeWorker: Service {
    public let repository: any CheckinRepository
    public let retention: PersonalDataRetention
    /// The pass folder, whose images of a purged event are deleted; nil when the server keeps none.
    public let passImages: PassImageStore?
    public let clock: any ServerClock
    public let interval: Duration
    public let logger: Logger

    public init(
        repository: any CheckinRepository, retention: PersonalDataRetention, passImages: PassImageStore?,
        clock: any ServerClock = SystemServerClock(), interval: Duration = .seconds(3600),
        logger: Logger = Logger(label: "personal-data-purge")
    ) {
        self.repository = repository
        self.retention = retention
        self.passImages = passImages
        self.clock = clock
        self.interval = interval
        self.logger = logger
    }

    /// Purges every event due now; returns what each purge removed.
    @discardableResult
    public func purgeDue() async throws -> [PersonalDataPurge] {
        let now = clock.now()
        var purged: [PersonalDataPurge] = []
        for event in try await repository.eventsToPurge(endedBefore: retention.endedBefore(now)) {
            let purge = try await repository.purgePersonalData(event: event.id, at: now)
            var deleted = 0
            if let passImages {
                for name in purge.passImages where Self.isImageName(name) {
                    if unlink(passImages.path(name: name)) == 0 { deleted += 1 }
                }
            }
            try await repository.appendAudit(
                AuditEntry(
                    at: now, tenant: event.tenant, device: nil, action: "personal_data_purged",
                    detail: "event \(event.id), \(retention.days) days after it ended: \(purge.guests) guests' "
                        + "personal fields, \(purge.passes) passes, \(deleted) pass images"))
            logger.notice(
                "purged the personal data of event \(event.id) (\(purge.guests) guests, \(purge.passes) passes)")
            purged.append(purge)
        }
        return purged
    }

    /// A pass image's name as `PassImageStore` makes it (32 hex digits, .png): nothing else is ever deleted.
    static func isImageName(_ name: String) -> Bool {
        name.count == 36 && name.hasSuffix(".png") && name.dropLast(4).allSatisfy(\.isHexDigit)
    }

    public func run() async throws {
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            do {
                try await purgeDue()
            } catch is CancellationError {
                return
            } catch {
                // The database went away for a moment: say so, try again at the next interval.
                logger.error("personal data purge: \(error)")
            }
            do { try await sleepUntilShutdown(for: interval) } catch { return }
        }
    }
}
