import GrayImage
import KioskCore

/// Scales grey camera frames into a rectangle of a canvas, nearest neighbour, straight into the device
/// format. Keeps its lookup tables (grey level to device value, destination column to source column)
/// between frames, so a preview at 30 frames a second allocates nothing once the frame size is steady.
public struct GrayScaler: Sendable {
    private var layout: PixelLayout?
    private var palette: [UInt32] = []
    private var geometry: Geometry?
    private var sourceColumns: [Int] = []
    private var sourceRows: [Int] = []

    private struct Geometry: Equatable {
        var sourceWidth: Int
        var sourceHeight: Int
        var target: Rect
        var mirrored: Bool
    }

    public init() {}

    /// Draws `frame` scaled to fill `target` (clipped to the canvas). `mirrored` flips it left to right,
    /// like a selfie camera, so a guest moving the phone left sees it move left.
    public mutating func draw(_ frame: GrayFrame, in target: Rect, on canvas: inout Canvas, mirrored: Bool = false) {
        guard !frame.isEmpty, !target.isEmpty else { return }
        prepare(layout: canvas.layout)
        let geometry = Geometry(
            sourceWidth: frame.width, sourceHeight: frame.height, target: target, mirrored: mirrored)
        if geometry != self.geometry { prepare(geometry) }
        let area = target.intersection(canvas.bounds)
        guard !area.isEmpty else { return }

        let stride = canvas.layout.stride
        let bpp = canvas.layout.bytesPerPixel
        let sourceWidth = frame.width
        palette.withUnsafeBufferPointer { palette in
            sourceColumns.withUnsafeBufferPointer { columns in
                sourceRows.withUnsafeBufferPointer { rows in
                    frame.pixels.withUnsafeBufferPointer { source in
                        canvas.bytes.withUnsafeMutableBytes { raw in
                            let base = raw.baseAddress!
                            for y in area.y..<area.maxY {
                                let sourceRow = rows[y - target.y] * sourceWidth
                                var offset = y * stride + area.x * bpp
                                var column = area.x - target.x
                                if bpp == 4 {
                                    for _ in 0..<area.width {
                                        let value = palette[Int(source[sourceRow + columns[column]])]
                                        base.storeBytes(of: value.littleEndian, toByteOffset: offset, as: UInt32.self)
                                        offset += 4
                                        column += 1
                                    }
                                } else {
                                    for _ in 0..<area.width {
                                        Canvas.store(
                                            base, offset, bpp, palette[Int(source[sourceRow + columns[column]])])
                                        offset += bpp
                                        column += 1
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    private mutating func prepare(layout: PixelLayout) {
        guard layout != self.layout else { return }
        self.layout = layout
        palette = (0...255).map { layout.pack(RGBColor(red: UInt8($0), green: UInt8($0), blue: UInt8($0))) }
    }

    private mutating func prepare(_ geometry: Geometry) {
        self.geometry = geometry
        let target = geometry.target
        sourceColumns = (0..<target.width).map { x in
            let column = (2 * x + 1) * geometry.sourceWidth / (2 * target.width)
            return geometry.mirrored ? geometry.sourceWidth - 1 - column : column
        }
        sourceRows = (0..<target.height).map { y in (2 * y + 1) * geometry.sourceHeight / (2 * target.height) }
    }

    /// The largest rectangle with the frame's aspect ratio inside `area`, centred.
    public static func fitted(width: Int, height: Int, in area: Rect) -> Rect {
        guard width > 0, height > 0, !area.isEmpty else { return Rect(x: area.x, y: area.y, width: 0, height: 0) }
        var w = area.width
        var h = w * height / width
        if h > area.height {
            h = area.height
            w = h * width / height
        }
        return Rect(x: area.x + (area.width - w) / 2, y: area.y + (area.height - h) / 2, width: w, height: h)
    }
}
