import KioskCore

/// The colours of the screens: one field colour per verdict, text that reads on it.
public enum ScreenPalette {
    public static let green = RGBColor(hex: 0x1B7F3A)
    public static let amber = RGBColor(hex: 0xFFB300)
    public static let red = RGBColor(hex: 0xC0262D)
    public static let blue = RGBColor(hex: 0x1F5FBF)
    /// Ready and manual-entry screens.
    public static let night = RGBColor(hex: 0x121820)
    public static let slate = RGBColor(hex: 0x1C2630)
    public static let ink = RGBColor(hex: 0x141414)
    public static let paper = RGBColor(hex: 0xF4F6F8)
    public static let mist = RGBColor(hex: 0xA9B8C6)
    public static let highlight = RGBColor(hex: 0xFFD54F)

    /// The field a verdict is shown on (`Verdict.colour`, the same for every display).
    public static func field(for verdict: Verdict) -> RGBColor { field(verdict.colour) }

    public static func field(_ colour: VerdictColour) -> RGBColor {
        switch colour {
        case .green: green
        case .amber: amber
        case .red: red
        case .blue: blue
        }
    }

    /// Text on `field`: near-black on amber, white elsewhere.
    public static func text(on field: RGBColor) -> RGBColor {
        let luma = 299 * Int(field.red) + 587 * Int(field.green) + 114 * Int(field.blue)
        return luma > 150_000 ? ink : .white
    }

    /// Secondary text on `field` (details, notes): a little softer than `text(on:)`.
    public static func secondaryText(on field: RGBColor) -> RGBColor {
        let text = text(on: field)
        return text.blended(over: field, alpha: 215)
    }
}
