import Foundation
import KioskCore
import NIOConcurrencyHelpers
import NIOSSL
import SignedRecords

/// This door's current identity and the TLS contexts made from it, swapped when the server rotates the credential;
/// each new link takes the current one.
final class PeerIdentityHolder: Sendable {
    struct Current: Sendable {
        var identity: PeerIdentity
        var server: NIOSSLContext
        var client: NIOSSLContext
    }

    private let box: NIOLockedValueBox<Current?> = NIOLockedValueBox(nil)

    var current: Current? { box.withLockedValue { $0 } }

    /// Makes the contexts for `identity` and makes it current. TLS 1.3 only; each side must present a certificate,
    /// which the custom verification of `PeerTLS` checks (no certificate authority, no host name).
    func install(_ identity: PeerIdentity) throws(PeerError) {
        do {
            var server = TLSConfiguration.makeServerConfiguration(
                certificateChain: [.certificate(identity.certificate)], privateKey: .privateKey(identity.privateKey))
            server.minimumTLSVersion = .tlsv13
            server.certificateVerification = .noHostnameVerification
            // No certificate authority takes part (PeerTLS checks each certificate's credential itself), so none
            // is loaded: the system's default roots would make the context fail on a box without
            // ca-certificates (the HIL test's minimal Debian 12 found it: "unknownError([])").
            server.trustRoots = .certificates([])
            var client = TLSConfiguration.makeClientConfiguration()
            client.certificateChain = [.certificate(identity.certificate)]
            client.privateKey = .privateKey(identity.privateKey)
            client.minimumTLSVersion = .tlsv13
            client.certificateVerification = .noHostnameVerification
            client.trustRoots = .certificates([])
            let current = Current(
                identity: identity, server: try NIOSSLContext(configuration: server),
                client: try NIOSSLContext(configuration: client))
            box.withLockedValue { $0 = current }
        } catch {
            throw PeerError(operation: "making this door's TLS contexts", detail: "\(error)")
        }
    }
}

/// The credential a link's peer presented, once the handshake has checked it.
final class VerifiedPeer: Sendable {
    private let box: NIOLockedValueBox<PeerCredential?> = NIOLockedValueBox(nil)

    var credential: PeerCredential? { box.withLockedValue { $0 } }

    func set(_ credential: PeerCredential) { box.withLockedValue { $0 = credential } }
}
