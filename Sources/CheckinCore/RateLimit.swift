import Foundation

/// One counter of a rate limit kept in the database (so every server process shares it): at most `limit` hits
/// under `key` within `window` seconds. `CheckinRepository.takeHits` counts a hit before the work it guards
/// (a bcrypt check, an audit row), atomically, so parallel requests cannot all slip under the limit.
public struct RateLimit: Equatable, Sendable {
    /// What is counted, such as `sign-in:client:203.0.113.7` or `sign-in:account:ann@example.org`.
    public var key: String
    public var limit: Int
    public var window: TimeInterval

    public init(key: String, limit: Int, window: TimeInterval) {
        self.key = key
        self.limit = limit
        self.window = window
    }

    /// Keys are stored at most this long (longer keys, such as a typed e-mail, are cut).
    public static let maximumKeyLength = 200

    /// The key as stored.
    public var storedKey: String { String(key.prefix(Self.maximumKeyLength)) }
}
