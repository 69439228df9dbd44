/// An off-screen picture in a device's pixel format: what a screen is drawn into before one copy puts
/// it on the framebuffer. Drawing takes `RGBColor`s; `layout` packs them.
///
/// Rows are `layout.stride` bytes apart, like the device's, so presenting is a single `memcpy`.
public struct Canvas: Sendable {
    public let width: Int
    public let height: Int
    public let layout: PixelLayout
    /// The pixels, `layout.stride * height` bytes.
    public internal(set) var bytes: [UInt8]

    public init(width: Int, height: Int, layout: PixelLayout) {
        precondition(width > 0 && height > 0, "a canvas needs pixels")
        precondition(layout.stride >= width * layout.bytesPerPixel, "stride shorter than a row")
        self.width = width
        self.height = height
        self.layout = layout
        self.bytes = [UInt8](repeating: 0, count: layout.stride * height)
    }

    public var bounds: Rect { Rect(x: 0, y: 0, width: width, height: height) }

    /// The colour at one pixel, unpacked from the device format.
    public func color(x: Int, y: Int) -> RGBColor {
        precondition(bounds.contains(x: x, y: y), "pixel outside the canvas")
        return bytes.withUnsafeBytes {
            layout.unpack(
                Self.load($0.baseAddress!, y * layout.stride + x * layout.bytesPerPixel, layout.bytesPerPixel))
        }
    }

    /// Paints `rect` (clipped to the canvas) with `color`.
    public mutating func fill(_ rect: Rect, with color: RGBColor) {
        let area = rect.intersection(bounds)
        guard !area.isEmpty else { return }
        let value = layout.pack(color)
        let stride = layout.stride
        let bpp = layout.bytesPerPixel
        bytes.withUnsafeMutableBytes { raw in
            let base = raw.baseAddress!
            for y in area.y..<area.maxY {
                var offset = y * stride + area.x * bpp
                switch bpp {
                case 4:
                    for _ in 0..<area.width {
                        base.storeBytes(of: value.littleEndian, toByteOffset: offset, as: UInt32.self)
                        offset += 4
                    }
                default:
                    for _ in 0..<area.width {
                        Self.store(base, offset, bpp, value)
                        offset += bpp
                    }
                }
            }
        }
    }

    /// Paints the whole canvas.
    public mutating func clear(to color: RGBColor) {
        fill(bounds, with: color)
    }

    /// The picture as 8-bit RGB, row after row with no padding: for PNG files and tests.
    public func rgbPixels() -> [UInt8] {
        var out = [UInt8](repeating: 0, count: width * height * 3)
        let stride = layout.stride
        let bpp = layout.bytesPerPixel
        bytes.withUnsafeBytes { raw in
            let base = raw.baseAddress!
            out.withUnsafeMutableBufferPointer { rgb in
                var i = 0
                for y in 0..<height {
                    var offset = y * stride
                    for _ in 0..<width {
                        let c = layout.unpack(Self.load(base, offset, bpp))
                        rgb[i] = c.red
                        rgb[i + 1] = c.green
                        rgb[i + 2] = c.blue
                        i += 3
                        offset += bpp
                    }
                }
            }
        }
        return out
    }

    /// One device value, `bytesPerPixel` bytes little-endian at `offset`.
    @inline(__always)
    static func load(_ base: UnsafeRawPointer, _ offset: Int, _ bytesPerPixel: Int) -> UInt32 {
        switch bytesPerPixel {
        case 4: return UInt32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
        case 2: return UInt32(UInt16(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt16.self)))
        default:
            return UInt32(base.load(fromByteOffset: offset, as: UInt8.self))
                | UInt32(base.load(fromByteOffset: offset + 1, as: UInt8.self)) << 8
                | UInt32(base.load(fromByteOffset: offset + 2, as: UInt8.self)) << 16
        }
    }

    /// Stores one device value, `bytesPerPixel` bytes little-endian at `offset`.
    @inline(__always)
    static func store(_ base: UnsafeMutableRawPointer, _ offset: Int, _ bytesPerPixel: Int, _ value: UInt32) {
        switch bytesPerPixel {
        case 4: base.storeBytes(of: value.littleEndian, toByteOffset: offset, as: UInt32.self)
        case 2:
            base.storeBytes(of: UInt16(truncatingIfNeeded: value).littleEndian, toByteOffset: offset, as: UInt16.self)
        default:
            base.storeBytes(of: UInt8(truncatingIfNeeded: value), toByteOffset: offset, as: UInt8.self)
            base.storeBytes(of: UInt8(truncatingIfNeeded: value >> 8), toByteOffset: offset + 1, as: UInt8.self)
            base.storeBytes(of: UInt8(truncatingIfNeeded: value >> 16), toByteOffset: offset + 2, as: UInt8.self)
        }
    }
}
