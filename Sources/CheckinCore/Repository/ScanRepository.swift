import Foundation
import PassFormat

/// Scans applied to an event's check-ins (the reconciliation), the check-ins, their history and double entries.
/// One role of `CheckinRepository`.
public protocol ScanRepository: Sendable {
    /// Applies one uploaded item in one transaction with its key and answer (`CheckInRules.decide`), or
    /// returns the stored answer when the key was applied before. `device` is the uploading device.
    func apply(_ scan: Scan, event: EventID, device: Device, receivedAt: Date) async throws -> ScanOutcome
    /// Applies a batch's items in order, each as `apply(_:event:device:receivedAt:)` would (its key, answer and
    /// effect all or nothing), and answers each; `receivedAt` is asked once per item. When an item fails, the
    /// items before it stay applied with their answers, the ones after it are not applied, and the error is
    /// thrown. A repository may apply the batch in fewer transactions than items (SQLite: one, with a savepoint
    /// per item).
    func apply(_ scans: [Scan], event: EventID, device: Device, receivedAt: @Sendable () -> Date) async throws
        -> [ScanOutcome]
    func checkIns(event: EventID) async throws -> [CheckIn]
    /// The guests' check-ins at every list of the event (issue 51), each with its list, by corrected time.
    func listCheckIns(event: EventID) async throws -> [CheckIn]
    /// Every scan that reached the server, in the order it was received.
    func checkInEvents(event: EventID) async throws -> [CheckInEvent]
    /// The event's double entries (`DoubleEntry`), by the other admit's corrected time.
    func doubleEntries(event: EventID) async throws -> [DoubleEntry]
}
