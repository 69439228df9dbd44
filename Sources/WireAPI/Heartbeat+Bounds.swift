extension Heartbeat {
    /// A kiosk's queue at most: far more than a door scans in a year.
    public static let pendingCounts = 0...100_000_000

    /// What is wrong with a report, checked before the server keeps it (it is stored per device and read again
    /// on every monitor page, where the roster cursor is parsed): each field within the size of what a kiosk
    /// sends; nil when it is within them all.
    public var boundsProblem: (message: String, hint: String?)? {
        // The door in characters, as enrolment counts it.
        guard (1...64).contains(door.count) else { return ("door must be 1 to 64 characters", nil) }
        for (name, text, lengths) in [
            ("kioskVersion", kioskVersion, 1...64), ("camera", camera, 0...256),
            ("rosterCursor", rosterCursor ?? "", 0...4096),
        ] where !lengths.contains(text.utf8.count) {
            return ("\(name) must be \(lengths.lowerBound) to \(lengths.upperBound) bytes", nil)
        }
        guard Self.pendingCounts.contains(pending) else {
            return ("pending must be 0 to \(Self.pendingCounts.upperBound), the count of the kiosk's queued scans", nil)
        }
        if let peers = lanPeers {
            guard peers.count <= Self.maximumLANPeers else {
                return (
                    "lanPeers lists \(peers.count) devices, at most \(Self.maximumLANPeers) are accepted",
                    "send the device ids of the peers with a live link only"
                )
            }
            guard peers.allSatisfy({ (1...64).contains($0.count) }) else {
                return ("each device id of lanPeers must be 1 to 64 characters", nil)
            }
        }
        return nil
    }
}
