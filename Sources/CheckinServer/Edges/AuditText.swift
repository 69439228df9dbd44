/// Text from an unauthenticated request (a typed e-mail, a path) as it goes into an audit row: control
/// characters replaced, at most `limit` characters, so that nobody fills the disk or the log's screen through it.
enum AuditText {
    static let limit = 120

    static func clipped(_ text: String, to limit: Int = AuditText.limit) -> String {
        let clean = String(text.unicodeScalars.map { $0.properties.generalCategory == .control ? "?" : Character($0) })
        return clean.count <= limit ? clean : clean.prefix(limit) + "…"
    }
}
