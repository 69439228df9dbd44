import Foundation
import PassFormat

/// Whether the store answers and holds this build's schema.
/// One role of `CheckinRepository`.
public protocol ReadinessRepository: Sendable {
    /// The schema steps this server knows and those the database has applied (`GET /readyz`); throws when the
    /// database does not answer.
    func schemaStatus() async throws -> SchemaStatus
}
