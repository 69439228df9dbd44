/// How far a kiosk's clock may be from the server's and still be corrected by its offset: a day either way.
/// A kiosk measures its offset at every exchange, so a real one is seconds, or hours for a box whose clock was
/// never set; a larger value (from a stolen or broken kiosk) would place its scans at any time it likes, so
/// the server ignores it: the scan is corrected as if it carried no offset.
public enum ClockOffsetBound {
    public static let maximumMs: Int64 = 24 * 3600 * 1000

    /// `offsetMs` when within a day of zero, else nil (ignored).
    public static func accepted(_ offsetMs: Int64?) -> Int64? {
        guard let offsetMs, (-maximumMs...maximumMs).contains(offsetMs) else { return nil }
        return offsetMs
    }
}
