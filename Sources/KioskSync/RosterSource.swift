import WireAPI

/// Where roster pages come from: the check-in server's client (tests wrap it to cut a download part-way).
public protocol RosterSource: Sendable {
    func rosterPage(event: UInt32, page: String?, changesSince: String?) async throws(SyncError)
        -> CheckinClient.Exchange<RosterPage>
}

extension CheckinClient: RosterSource {}
