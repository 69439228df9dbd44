internal import CLinuxFramebuffer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A Linux framebuffer device (`/dev/fb0`) opened and mapped: its visible size, its pixel layout and
/// the shared mapping of its memory. `present` copies a whole canvas into the mapping in one sweep.
///
/// Owns the file descriptor and the mapping; `deinit` unmaps and closes. Use from one task at a time.
public struct FramebufferDevice: ~Copyable {
    public let path: String
    /// Visible pixels (`xres`, `yres`).
    public let width: Int
    public let height: Int
    public let layout: PixelLayout
    private let descriptor: Int32
    private let mapping: UnsafeMutableRawPointer
    private let mappingLength: Int
    /// Byte offset of the visible area's top-left pixel in the mapping (`yoffset`, `xoffset`).
    private let visibleOffset: Int

    /// Opens and maps `path`. The corresponding C calls are `open`, `ioctl(FBIOGET_VSCREENINFO)`,
    /// `ioctl(FBIOGET_FSCREENINFO)` and `mmap` (of `line_length * yres_virtual`, or only the visible rows
    /// when the driver refuses that).
    public init(path: String = "/dev/fb0") throws(FramebufferError) {
        let fd = try syscall("open", path: path) { open(path, O_RDWR | O_CLOEXEC) }
        var variable = fb_var_screeninfo()
        var fixed = fb_fix_screeninfo()
        let geometry: (layout: PixelLayout, length: Int, minimum: Int, offset: Int)
        do {
            _ = try syscall("FBIOGET_VSCREENINFO", path: path) {
                CLinuxFramebuffer_ioctl(fd, UInt(FBIOGET_VSCREENINFO), &variable)
            }
            _ = try syscall("FBIOGET_FSCREENINFO", path: path) {
                CLinuxFramebuffer_ioctl(fd, UInt(FBIOGET_FSCREENINFO), &fixed)
            }
            geometry = try Self.geometry(variable, fixed, path: path)
        } catch {
            close(fd)
            throw error
        }
        var mapped = mmap(nil, geometry.length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)
        var length = geometry.length
        if mapped == mapFailedPointer, geometry.minimum < geometry.length {
            length = geometry.minimum
            mapped = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)
        }
        guard let mapped, mapped != mapFailedPointer else {
            let code = errno
            close(fd)
            throw FramebufferError(path: path, reason: .system(call: "mmap", errno: code))
        }
        self.path = path
        self.width = Int(variable.xres)
        self.height = Int(variable.yres)
        self.layout = geometry.layout
        self.descriptor = fd
        self.mapping = mapped
        self.mappingLength = length
        self.visibleOffset = geometry.offset
    }

    deinit {
        munmap(mapping, mappingLength)
        close(descriptor)
    }

    /// A canvas of the device's size and pixel layout, to draw screens into.
    public func makeCanvas() -> Canvas {
        Canvas(width: width, height: height, layout: layout)
    }

    /// Copies `canvas` (made by `makeCanvas`) to the screen: one `memcpy` when the visible area starts a
    /// row, else one sweep of row copies honouring the stride. Never scattered small writes.
    public func present(_ canvas: borrowing Canvas) {
        precondition(
            canvas.width == width && canvas.height == height && canvas.layout == layout, "canvas is not the device's")
        let stride = layout.stride
        let rowBytes = width * layout.bytesPerPixel
        canvas.bytes.withUnsafeBytes { source in
            let destination = mapping + visibleOffset
            if visibleOffset % stride == 0 {
                memcpy(destination, source.baseAddress!, stride * (height - 1) + rowBytes)
            } else {
                for y in 0..<height {
                    memcpy(destination + y * stride, source.baseAddress! + y * stride, rowBytes)
                }
            }
        }
    }

    /// Checks the device's format and works out the layout, the mapping's length and the visible offset.
    static func geometry(
        _ variable: fb_var_screeninfo, _ fixed: fb_fix_screeninfo, path: String
    ) throws(FramebufferError) -> (layout: PixelLayout, length: Int, minimum: Int, offset: Int) {
        func unsupported(_ what: String) -> FramebufferError {
            FramebufferError(path: path, reason: .unsupportedPixelFormat(what))
        }
        guard fixed.type == UInt32(FB_TYPE_PACKED_PIXELS) else {
            throw unsupported("framebuffer type \(fixed.type) is not packed pixels")
        }
        guard fixed.visual == UInt32(FB_VISUAL_TRUECOLOR) || fixed.visual == UInt32(FB_VISUAL_DIRECTCOLOR) else {
            throw unsupported("visual \(fixed.visual) is not true colour")
        }
        guard variable.grayscale == 0, variable.nonstd == 0 else {
            throw unsupported("grayscale/FOURCC or non-standard mode")
        }
        func channel(_ field: fb_bitfield) -> PixelLayout.Channel {
            PixelLayout.Channel(offset: Int(field.offset), length: Int(field.length))
        }
        var layout = PixelLayout.xrgb8888(width: 1)
        layout.bitsPerPixel = Int(variable.bits_per_pixel)
        layout.red = channel(variable.red)
        layout.green = channel(variable.green)
        layout.blue = channel(variable.blue)
        layout.alpha = channel(variable.transp)
        layout.stride = Int(fixed.line_length)
        if let problem = layout.validationProblem { throw unsupported(problem) }
        let width = Int(variable.xres)
        let height = Int(variable.yres)
        guard width > 0, height > 0, layout.stride >= width * layout.bytesPerPixel else {
            throw unsupported("\(width)x\(height) with a stride of \(layout.stride) bytes")
        }
        let offset = Int(variable.yoffset) * layout.stride + Int(variable.xoffset) * layout.bytesPerPixel
        let minimum = offset + (height - 1) * layout.stride + width * layout.bytesPerPixel
        var length = layout.stride * max(Int(variable.yres_virtual), height)
        if fixed.smem_len > 0 { length = min(length, Int(fixed.smem_len)) }
        return (layout, max(length, minimum), minimum, offset)
    }
}

/// `MAP_FAILED`, a cast in a macro that Swift does not import.
private var mapFailedPointer: UnsafeMutableRawPointer? { UnsafeMutableRawPointer(bitPattern: -1) }
