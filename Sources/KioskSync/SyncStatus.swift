import KioskCore

/// What the sync worker tells the door after each attempt: whether the server answered, how many check-ins
/// wait, and the last failure (for the log and `kioskctl status`).
public struct SyncStatus: Equatable, Sendable {
    public var connection: SyncConnection
    public var pending: Int
    public var lastError: String?

    public init(connection: SyncConnection, pending: Int, lastError: String? = nil) {
        self.connection = connection
        self.pending = pending
        self.lastError = lastError
    }
}
