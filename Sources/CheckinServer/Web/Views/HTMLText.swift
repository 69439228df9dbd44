/// Text put into the SVG the server draws (the templates escape their own values).
enum HTMLText {
    /// `text` safe inside an element or a quoted attribute: the five characters that could end it.
    static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }
}
