/// How the guest list's search box reads what was typed.
public enum GuestSearch {
    /// The text as a confirmation-code prefix: upper-cased, without dashes and spaces.
    public static func codePrefix(_ text: String) -> String {
        String(text.uppercased().filter { $0 != "-" && $0 != " " })
    }

    /// `text` for a SQL `LIKE ... ESCAPE '\\'` pattern: `%`, `_` and `\\` match themselves.
    public static func likeEscaped(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if character == "%" || character == "_" || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }
}
