import KioskCore
import NIOConcurrencyHelpers
import SignedRecords

/// The devices the server revoked, as this door knows them (from its heartbeats, or passed on by a peer, each
/// signed by the server): read by the TLS checks and the discovery on the event loops, kept up to date by the
/// exchange.
final class PeerRevocations: Sendable {
    private let revokedAt = NIOLockedValueBox<[String: Int64]>([:])

    /// Notes `revocations` (a later one of a device replaces an earlier one).
    func note(_ revocations: [DeviceRevocation]) {
        revokedAt.withLockedValue { known in
            for revocation in revocations {
                known[revocation.deviceId] = max(known[revocation.deviceId] ?? .min, revocation.revokedAt)
            }
        }
    }

    /// Whether `credential` was issued to a device before the server revoked it.
    func revokes(_ credential: PeerCredential) -> Bool {
        guard let at = revokedAt.withLockedValue({ $0[credential.deviceId] }) else { return false }
        return credential.notBefore <= at
    }
}
