import Synchronization

/// The server's address as guests and organizers reach it: passes, e-mails and alerts link under it. Either given
/// (`serve --public-url`), or the server's own address, completed with the port the system chose once the server
/// listens (`serve --port 0`), so no link ever says port 0.
public final class PublicAddress: Sendable {
    private let url: Mutex<String>

    public init(_ url: String) { self.url = Mutex(Self.trimmed(url)) }

    /// The address, without a trailing '/'.
    public var value: String { url.withLock { $0 } }

    /// The address from now on (the server's own, once it listens).
    public func update(_ url: String) { self.url.withLock { $0 = Self.trimmed(url) } }

    static func trimmed(_ url: String) -> String { url.hasSuffix("/") ? String(url.dropLast()) : url }
}
