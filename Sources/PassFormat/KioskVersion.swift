/// A kiosk's version, `major.minor.patch` (missing parts are 0; a suffix such as `-beta` is ignored).
/// Compared part by part as numbers, so 1.10.0 is newer than 1.9.3.
public struct KioskVersion: Comparable, Hashable, Sendable, CustomStringConvertible {
    public var parts: [Int]

    public init?(_ text: String) {
        let core = text.split(separator: "-", maxSplits: 1).first.map(String.init) ?? ""
        let pieces = core.split(separator: ".", omittingEmptySubsequences: false)
        guard !pieces.isEmpty, pieces.count <= 4 else { return nil }
        var parts: [Int] = []
        for piece in pieces {
            guard let n = Int(piece), n >= 0 else { return nil }
            parts.append(n)
        }
        while parts.count < 3 { parts.append(0) }
        self.parts = parts
    }

    public var description: String { parts.map(String.init).joined(separator: ".") }

    public static func < (a: KioskVersion, b: KioskVersion) -> Bool {
        for i in 0..<max(a.parts.count, b.parts.count) {
            let x = i < a.parts.count ? a.parts[i] : 0
            let y = i < b.parts.count ? b.parts[i] : 0
            if x != y { return x < y }
        }
        return false
    }

    /// Whether a kiosk reporting `reported` (nil when it did not say) may use an event requiring `minimum`.
    public static func isAllowed(reported: String?, minimum: KioskVersion?) -> Bool {
        guard let minimum else { return true }
        guard let reported, let version = KioskVersion(reported) else { return false }
        return version >= minimum
    }
}
