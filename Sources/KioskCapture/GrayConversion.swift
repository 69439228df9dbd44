import GrayImage
import KioskCore

/// Turns one captured buffer into a `GrayFrame` (rows packed, `stride == width`).
public enum GrayConversion {
    /// The grey picture of a buffer in pixel format `fourCC` ("GREY", "YUYV", "UYVY", "YU12", "RGB3"...): what
    /// the capture loop does to every frame (public for the benchmark). Nil for an unknown format or a short buffer.
    public static func grayFrame(
        from buffer: UnsafeRawBufferPointer, fourCC: String, width: Int, height: Int, bytesPerLine: Int
    ) -> GrayFrame? {
        guard let format = FourCC(name: fourCC), let layout = LumaLayout(format) else { return nil }
        return grayFrame(from: buffer, layout: layout, width: width, height: height, bytesPerLine: bytesPerLine)
    }

    /// Bytes a buffer must hold for `height` rows of `bytesPerLine` (the last row need only hold its pixels).
    static func requiredBytes(layout: LumaLayout, width: Int, height: Int, bytesPerLine: Int) -> Int {
        height == 0 ? 0 : bytesPerLine * (height - 1) + layout.rowBytes(width: width)
    }

    /// The grey picture in `buffer`, or nil when the buffer is shorter than the format says (a truncated frame).
    static func grayFrame(
        from buffer: UnsafeRawBufferPointer, layout: LumaLayout, width: Int, height: Int, bytesPerLine: Int
    ) -> GrayFrame? {
        guard width > 0, height > 0, bytesPerLine >= layout.rowBytes(width: width),
            buffer.count >= requiredBytes(layout: layout, width: width, height: height, bytesPerLine: bytesPerLine),
            let source = buffer.baseAddress
        else { return nil }
        let pixels = [UInt8](unsafeUninitializedCapacity: width * height) { destination, count in
            let out = destination.baseAddress!
            let input = source.assumingMemoryBound(to: UInt8.self)
            switch layout {
            case .grey, .planar:
                if bytesPerLine == width {
                    out.update(from: input, count: width * height)
                } else {
                    for y in 0..<height {
                        (out + y * width).update(from: input + y * bytesPerLine, count: width)
                    }
                }
            case .packed422(let offset):
                for y in 0..<height {
                    let row = input + y * bytesPerLine + offset
                    let line = out + y * width
                    for x in 0..<width { line[x] = row[2 &* x] }
                }
            case .rgb(let red, let blue):
                for y in 0..<height {
                    let row = input + y * bytesPerLine
                    let line = out + y * width
                    for x in 0..<width {
                        let p = row + 3 &* x
                        // BT.601 weights scaled to 256, full range: white stays 255, black stays 0.
                        let luma = 77 &* UInt32(p[red]) &+ 150 &* UInt32(p[1]) &+ 29 &* UInt32(p[blue]) &+ 128
                        line[x] = UInt8(truncatingIfNeeded: luma >> 8)
                    }
                }
            }
            count = width * height
        }
        return GrayFrame(width: width, height: height, pixels: pixels)
    }
}
