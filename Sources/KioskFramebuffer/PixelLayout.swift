/// How the device stores one pixel and one row: bits per pixel, where each colour channel sits
/// (offset and length in bits, as in `fb_var_screeninfo`'s `fb_bitfield`s) and the bytes per row.
///
/// Pixels are stored in the machine's byte order (little-endian on the kiosks), as the kernel's
/// framebuffer drivers expect. 16, 24 and 32 bits per pixel; channels of 1 to 16 bits.
public struct PixelLayout: Hashable, Sendable, CustomStringConvertible {
    /// One channel's place in a pixel: `offset` is the least significant bit, `length` the number of bits.
    public struct Channel: Hashable, Sendable {
        public var offset: Int
        public var length: Int

        public init(offset: Int, length: Int) {
            self.offset = offset
            self.length = length
        }

        public static let absent = Channel(offset: 0, length: 0)

        var maximum: UInt32 { length == 0 ? 0 : UInt32((1 << length) - 1) }
    }

    public var bitsPerPixel: Int
    public var red: Channel
    public var green: Channel
    public var blue: Channel
    /// Set to all ones when present (opaque); `.absent` for XRGB.
    public var alpha: Channel
    /// Bytes from one row to the next (`fb_fix_screeninfo.line_length`); may exceed width * bytes per pixel.
    public var stride: Int

    public init(bitsPerPixel: Int, red: Channel, green: Channel, blue: Channel, alpha: Channel = .absent, stride: Int) {
        self.bitsPerPixel = bitsPerPixel
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
        self.stride = stride
        if let problem = validationProblem { preconditionFailure(problem) }
    }

    /// 32 bpp XRGB, little-endian: bytes B, G, R, X. The bochs-drm framebuffer's format.
    public static func xrgb8888(width: Int, stride: Int? = nil) -> PixelLayout {
        PixelLayout(
            bitsPerPixel: 32, red: Channel(offset: 16, length: 8), green: Channel(offset: 8, length: 8),
            blue: Channel(offset: 0, length: 8), stride: stride ?? width * 4)
    }

    /// 16 bpp RGB565, little-endian.
    public static func rgb565(width: Int, stride: Int? = nil) -> PixelLayout {
        PixelLayout(
            bitsPerPixel: 16, red: Channel(offset: 11, length: 5), green: Channel(offset: 5, length: 6),
            blue: Channel(offset: 0, length: 5), stride: stride ?? width * 2)
    }

    public var bytesPerPixel: Int { bitsPerPixel / 8 }

    /// Why these fields describe no pixel format this module draws, or nil when they do.
    var validationProblem: String? {
        guard [16, 24, 32].contains(bitsPerPixel) else { return "\(bitsPerPixel) bits per pixel (need 16, 24 or 32)" }
        for (name, channel) in [("red", red), ("green", green), ("blue", blue), ("alpha", alpha)] {
            let colour = name != "alpha"
            if colour && !(1...16).contains(channel.length) || !colour && !(0...16).contains(channel.length) {
                return "\(name) channel of \(channel.length) bits"
            }
            if channel.offset < 0 || channel.offset + channel.length > bitsPerPixel {
                return "\(name) channel at bits \(channel.offset)+\(channel.length) outside a \(bitsPerPixel)-bit pixel"
            }
        }
        guard stride > 0 else { return "stride of \(stride) bytes" }
        return nil
    }

    /// The device value of `color`; each channel scaled (rounded) from 8 bits to its length.
    @inline(__always)
    public func pack(_ color: RGBColor) -> UInt32 {
        @inline(__always) func place(_ value: UInt8, _ channel: Channel) -> UInt32 {
            let maximum = channel.maximum
            return ((UInt32(value) * maximum + 127) / 255) << UInt32(channel.offset)
        }
        return place(color.red, red) | place(color.green, green) | place(color.blue, blue)
            | (alpha.maximum << UInt32(alpha.offset))
    }

    /// The colour of a device value; each channel scaled (rounded) back to 8 bits.
    @inline(__always)
    public func unpack(_ value: UInt32) -> RGBColor {
        @inline(__always) func take(_ channel: Channel) -> UInt8 {
            let maximum = channel.maximum
            let raw = (value >> UInt32(channel.offset)) & maximum
            return UInt8((raw * 255 + maximum / 2) / maximum)
        }
        return RGBColor(red: take(red), green: take(green), blue: take(blue))
    }

    public var description: String {
        "\(bitsPerPixel) bpp, red \(red.offset)+\(red.length), green \(green.offset)+\(green.length), "
            + "blue \(blue.offset)+\(blue.length), alpha \(alpha.offset)+\(alpha.length), stride \(stride)"
    }
}
