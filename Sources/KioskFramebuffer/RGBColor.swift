/// An 8-bit-per-channel colour, as the screens are designed; `PixelLayout` packs it for the device.
public struct RGBColor: Hashable, Sendable {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// `0xRRGGBB`.
    public init(hex: UInt32) {
        self.init(red: UInt8(hex >> 16 & 0xFF), green: UInt8(hex >> 8 & 0xFF), blue: UInt8(hex & 0xFF))
    }

    public static let black = RGBColor(hex: 0x000000)
    public static let white = RGBColor(hex: 0xFFFFFF)

    /// `self` over `background` with coverage `alpha` (0 = background only, 255 = `self` only).
    @inline(__always)
    public func blended(over background: RGBColor, alpha: UInt8) -> RGBColor {
        let a = UInt32(alpha)
        let b = 255 - a
        @inline(__always) func mix(_ f: UInt8, _ g: UInt8) -> UInt8 {
            UInt8((UInt32(f) * a + UInt32(g) * b + 127) / 255)
        }
        return RGBColor(
            red: mix(red, background.red), green: mix(green, background.green), blue: mix(blue, background.blue))
    }

    /// Each channel scaled by `factor` (0...1): a darker shade of the same colour.
    public func scaled(by factor: Double) -> RGBColor {
        func scale(_ c: UInt8) -> UInt8 { UInt8(max(0, min(255, (Double(c) * factor).rounded()))) }
        return RGBColor(red: scale(red), green: scale(green), blue: scale(blue))
    }
}
