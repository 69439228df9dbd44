/// The one check an address gets before the server would send to it: one '@' with text on both sides, a dot in
/// the domain, no spaces or line breaks (which could smuggle headers into a message), at most 254 characters.
/// Whether the mailbox exists only the relay can tell.
public enum EmailAddress {
    public static func isPlausible(_ address: String) -> Bool {
        guard address.count <= 254,
            !address.contains(where: { $0.isWhitespace || $0.isNewline || $0 == "<" || $0 == ">" })
        else { return false }
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), !parts[1].hasPrefix("."),
            !parts[1].hasSuffix(".")
        else { return false }
        return true
    }
}
