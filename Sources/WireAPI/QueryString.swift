import Foundation

/// A URL's query as a browser's GET form sends it (`a=1&b=x+y`), read without a framework: the organizer's pages
/// and the fuzzer read it through here.
public enum QueryString {
    /// The longest query read: a browser's form of a search box and a few links' values, with room to spare.
    public static let maximumLength = 8192

    /// The first value of `name` in `query`: `+` is a space, then percent-decoding; nil when the query lacks it,
    /// a value is not valid percent-encoded UTF-8, or the query is longer than `maximumLength`.
    public static func value(_ name: String, in query: String) -> String? {
        guard query.utf8.count <= maximumLength else { return nil }
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, parts[0] == name else { continue }
            return String(parts[1]).replacingOccurrences(of: "+", with: " ").removingPercentEncoding
        }
        return nil
    }
}
