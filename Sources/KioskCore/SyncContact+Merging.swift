import struct Foundation.Date

extension SyncContact {
    /// How fast a kiosk's clock may drift from the server's while it keeps an offset, in parts per million: a
    /// quartz clock without time synchronisation, generously (a measure an hour old is worth 0.72 s less).
    public static let driftPartsPerMillion: Int64 = 200

    /// The contact after `measured`, a new exchange: its time, and the better of the two offsets (NTP's
    /// minimum-delay filter).
    ///
    /// An offset measured at an exchange is off by at most half its round trip. A slow exchange (a loaded
    /// server, a congested venue network: seconds) must not replace a precise measure, or every check-in
    /// uploaded after it is corrected by seconds too much. So the measure kept is the one with the smaller
    /// uncertainty, the kept one's grown by the possible drift since it was taken. If the two differ by more
    /// than both uncertainties allow, the device's clock was set meanwhile: the new measure wins.
    public func merged(with measured: SyncContact) -> SyncContact {
        guard let kept = clockOffsetUncertaintyMilliseconds, let new = measured.clockOffsetUncertaintyMilliseconds
        else { return measured }
        let elapsed = max(Int64((measured.at.timeIntervalSince(at) * 1000).rounded()), 0)
        let aged = kept + elapsed * Self.driftPartsPerMillion / 1_000_000
        let disagreement = abs(measured.clockOffsetMilliseconds - clockOffsetMilliseconds)
        if new <= aged || disagreement > new + aged { return measured }
        return SyncContact(
            at: measured.at, clockOffsetMilliseconds: clockOffsetMilliseconds, clockOffsetUncertaintyMilliseconds: aged)
    }
}
