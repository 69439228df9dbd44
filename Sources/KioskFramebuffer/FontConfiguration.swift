/// Which font files the screens use. Defaults to DejaVu Sans from Debian's `fonts-dejavu-core`.
public struct FontConfiguration: Hashable, Sendable {
    public var regularPath: String
    public var boldPath: String
    /// The Debian package named in the error when a file is missing.
    public var package: String

    public init(regularPath: String, boldPath: String, package: String) {
        self.regularPath = regularPath
        self.boldPath = boldPath
        self.package = package
    }

    /// `/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf` and `DejaVuSans-Bold.ttf`.
    public static let dejaVu = FontConfiguration(
        regularPath: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
        boldPath: "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
        package: "fonts-dejavu-core")
}

/// The two weights the screens use.
public enum FontWeight: Hashable, Sendable {
    case regular
    case bold
}

/// The loaded faces of a `FontConfiguration`.
public final class FontSet {
    public let regular: FontFace
    public let bold: FontFace

    /// Loads both faces; fails naming a missing file and the package that provides it.
    public init(_ configuration: FontConfiguration = .dejaVu) throws(FramebufferError) {
        regular = try FontFace(path: configuration.regularPath, package: configuration.package)
        bold = try FontFace(path: configuration.boldPath, package: configuration.package)
    }

    public subscript(weight: FontWeight) -> FontFace {
        switch weight {
        case .regular: regular
        case .bold: bold
        }
    }
}
