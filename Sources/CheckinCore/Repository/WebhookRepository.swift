import Foundation
import PassFormat

/// The organizer's guest webhooks and their secrets.
/// One role of `CheckinRepository`.
public protocol WebhookRepository: Sendable {
    /// Applies a verified webhook once: the change and the `webhook-id`'s receipt in one transaction; a
    /// `webhook-id` the tenant sent before answers `duplicate` and changes nothing.
    func applyGuestWebhook(
        id webhookID: String, tenant: TenantID, event: EventID, change: GuestWebhookChange, at time: Date
    ) async throws -> GuestWebhookOutcome
    func addWebhookSecret(_ secret: String, tenant: TenantID, at time: Date) async throws
    /// Newest first.
    func webhookSecrets(tenant: TenantID) async throws -> [WebhookSecret]
}
