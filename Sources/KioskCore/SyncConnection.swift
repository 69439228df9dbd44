/// Whether the door's check-ins reach a server: a standalone door has none configured (its roster comes from a
/// CSV file); otherwise the sync worker says whether the server answered lately.
public enum SyncConnection: Equatable, Sendable {
    case standalone
    case online
    case offline

    /// The words on the status line: OFFLINE in capitals, since staff should notice it.
    public var label: String {
        switch self {
        case .standalone: "standalone"
        case .online: "online"
        case .offline: "OFFLINE"
        }
    }
}
