import CheckinCore
import Hummingbird

/// The request context: Hummingbird's core storage plus the device the token named, once authenticated.
public struct ServerContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// Set by `DeviceAuthenticator` on the device routes.
    public var device: Device?
    /// Set by `OrganizerSessionMiddleware` on the organizer's pages.
    var organizer: OrganizerSessions.Signed?
    /// The client's address (without the port), for the sign-in throttle.
    public let clientAddress: String?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        device = nil
        organizer = nil
        clientAddress = source.channel.remoteAddress?.ipAddress
    }

    /// The route's body limit (`EdgeLimits.bodyLimit`, set by `BodyLimitMiddleware` before any route runs).
    public var bodyLimit = EdgeLimits().apiBody

    /// What Hummingbird's own body decoding and every handler's `collect(upTo:)` read: the route's limit.
    public var maxUploadSize: Int { bodyLimit }

    /// The authenticated device; the authenticator runs before every handler that asks.
    func requireDevice() throws -> Device {
        guard let device else { throw APIFailure.unauthorized }
        return device
    }
}
