import Foundation
import Testing

/// One line of `Tests/BadInput/catalogue.tsv`: a bad input, the command that meets it, and what must come out.
///
/// Columns, separated by one or more tabs: name, case file, setup actions, command, exit status, key words.
/// See `Tests/BadInput/README.md` for the placeholders and the setup actions.
struct BadInputCase: Sendable, CustomTestStringConvertible {
    /// A word that must (or, written `!word`, must not) appear in standard output or standard error, case
    /// insensitive. `a|b` accepts either.
    struct KeyWord: Sendable {
        var alternatives: [String]
        var mustBeAbsent: Bool
    }

    var name: String
    /// The line of the catalogue, for messages.
    var line: Int
    /// The case file as written (relative to `Tests/BadInput/cases/`, or with a placeholder); nil for `-`.
    var file: String?
    /// Setup actions as written, placeholders not yet replaced.
    var setup: [String]
    /// The command's words, placeholders not yet replaced; the first is `kiosk` or `kioskctl`.
    var command: [String]
    var exitStatus: Int32
    var keyWords: [KeyWord]
    /// Set when the line itself could not be read: the case then fails with this message.
    var lineError: String?

    var testDescription: String { name }

    /// Where the catalogue line is, for failure messages.
    var location: String { "Tests/BadInput/catalogue.tsv:\(line)" }
}

extension BadInputCase {
    /// Parses one non-comment line of the catalogue.
    init(line text: Substring, number: Int) {
        let columns = text.split(separator: "\t", omittingEmptySubsequences: true)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        self.init(
            name: columns.first ?? "line \(number)", line: number, file: nil, setup: [], command: [],
            exitStatus: 0, keyWords: [], lineError: nil)
        guard columns.count == 6 else {
            lineError =
                "expected 6 tab-separated columns (name, file, setup, command, exit, key words), found \(columns.count)"
            return
        }
        file = columns[1] == "-" ? nil : columns[1]
        setup =
            columns[2] == "-"
            ? []
            : columns[2].split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }
        command = Self.words(columns[3])
        guard let status = Int32(columns[4]) else {
            lineError = "exit status '\(columns[4])' is not a number"
            return
        }
        exitStatus = status
        keyWords =
            columns[5] == "-"
            ? []
            : columns[5].split(separator: ";").compactMap { raw in
                var word = raw.trimmingCharacters(in: .whitespaces)
                guard !word.isEmpty else { return nil }
                let absent = word.hasPrefix("!")
                if absent { word.removeFirst() }
                return KeyWord(alternatives: word.split(separator: "|").map(String.init), mustBeAbsent: absent)
            }
        if command.first.map({ !["kiosk", "kioskctl", "kiosk-demo"].contains($0) }) ?? true {
            lineError = "the command must start with kiosk, kioskctl or kiosk-demo"
        }
    }

    /// Splits a command line into words at spaces; '...' and "..." keep spaces inside a word. No shell runs.
    static func words(_ text: String) -> [String] {
        var words: [String] = []
        var current = ""
        var quote: Character?
        var inWord = false
        for c in text {
            if let q = quote {
                if c == q { quote = nil } else { current.append(c) }
            } else if c == "'" || c == "\"" {
                quote = c
                inWord = true
            } else if c == " " {
                if inWord { words.append(current) }
                current = ""
                inWord = false
            } else {
                current.append(c)
                inWord = true
            }
        }
        if inWord { words.append(current) }
        return words
    }
}

/// The whole catalogue.
enum BadInputCatalogue {
    static let folder = Fixtures.packageRoot + "/Tests/BadInput"
    static let index = folder + "/catalogue.tsv"
    static let casesFolder = folder + "/cases"

    /// Every case of the catalogue, in file order (or those `KIOSK_BAD_INPUT` selects); a line that cannot be read
    /// becomes a failing case.
    static func load() -> [BadInputCase] {
        guard let text = try? String(contentsOfFile: index, encoding: .utf8) else {
            return [
                BadInputCase(
                    name: "catalogue", line: 0, file: nil, setup: [], command: [], exitStatus: 0,
                    keyWords: [], lineError: "cannot read \(index)")
            ]
        }
        var cases: [BadInputCase] = []
        var seen: [String: Int] = [:]
        for (i, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty, !trimmed.hasPrefix("#") else { continue }
            var c = BadInputCase(line: line, number: i + 1)
            if let earlier = seen.updateValue(c.line, forKey: c.name) {
                c.lineError = "the name \(c.name) is already used on line \(earlier)"
            }
            cases.append(c)
        }
        // KIOSK_BAD_INPUT=conf-crlf,roster- runs only the cases whose names start with one of these.
        if let only = ProcessInfo.processInfo.environment["KIOSK_BAD_INPUT"], !only.isEmpty {
            let prefixes = only.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            cases = cases.filter { c in prefixes.contains { c.name.hasPrefix($0) } }
        }
        return cases
    }
}
