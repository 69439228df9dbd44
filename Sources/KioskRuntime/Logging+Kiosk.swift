import Logging

extension Logger.Level {
    /// The level named in kiosk.conf's `log_level` (already validated by the parser).
    public init(configured name: String) {
        self = Logger.Level(rawValue: name) ?? .info
    }
}
