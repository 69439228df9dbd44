import CheckinCore
import Hummingbird

/// The request context: Hummingbird's core storage plus the device the token named, once authenticated.
public struct ServerContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// Set by `DeviceAuthenticator` on the device routes.
    public var device: Device?
    /// The client's address (without the port), for the sign-in throttle.
    public let clientAddress: String?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        device = nil
        clientAddress = source.channel.remoteAddress?.ipAddress
    }

    /// Uploads are at most 50 items, imports a CSV of a large event.
    public var maxUploadSize: Int { 32 * 1024 * 1024 }

    /// The authenticated device; the authenticator runs before every handler that asks.
    func requireDevice() throws -> Device {
        guard let device else { throw APIFailure.unauthorized }
        return device
    }
}
