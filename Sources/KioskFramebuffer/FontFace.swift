internal import CFreeType

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// One font file opened with FreeType, with caches of glyph advances and rendered glyphs per pixel size,
/// so text drawn again (the status line, a repeated name) costs no rasterisation.
///
/// Owns its `FT_Library` and `FT_Face` and frees them in `deinit`. Use from one task at a time.
public final class FontFace {
    public let path: String
    private var library: FT_Library?
    private let face: FT_Face
    private var currentSize = 0
    private var glyphIndices: [Unicode.Scalar: UInt32] = [:]
    private var advances: [GlyphKey: Int] = [:]
    private var glyphs: [GlyphKey: Glyph] = [:]
    private let hasKerning: Bool
    private let loadFlags: Int32

    /// Glyphs kept before the cache is emptied (each distinct size of each character counts once).
    static let glyphCacheLimit = 4096

    struct GlyphKey: Hashable {
        var size: Int
        var index: UInt32
    }

    /// A rendered glyph: 8-bit coverage, `width * rows`, placed `left`, `top` from the pen on the baseline.
    struct Glyph {
        var width: Int
        var rows: Int
        var left: Int
        var top: Int
        var coverage: [UInt8]
    }

    /// Opens `path`. The corresponding C functions are `FT_Init_FreeType` and `FT_New_Face`.
    public init(path: String, package: String) throws(FramebufferError) {
        self.path = path
        if access(path, R_OK) != 0 {
            let code = errno
            if code == ENOENT || code == ENOTDIR {
                throw FramebufferError(path: path, reason: .fontMissing(package: package))
            }
            throw FramebufferError(path: path, reason: .system(call: "access", errno: code))
        }
        var library: FT_Library?
        let initialised = FT_Init_FreeType(&library)
        guard initialised == 0, let library else {
            throw FramebufferError(path: path, reason: .freeType(call: "FT_Init_FreeType", code: initialised))
        }
        var face: FT_Face?
        let opened = FT_New_Face(library, path, 0, &face)
        guard opened == 0, let face else {
            FT_Done_FreeType(library)
            throw FramebufferError(path: path, reason: .freeType(call: "FT_New_Face", code: opened))
        }
        self.library = library
        self.face = face
        self.hasKerning = CFreeType_HAS_KERNING(face) != 0
        self.loadFlags = CFreeType_LOAD_TARGET_LIGHT()
    }

    deinit {
        FT_Done_Face(face)
        FT_Done_FreeType(library)
    }

    /// Distance from the baseline to the top of a capital letter, in pixels.
    public func capHeight(size: Int) -> Int {
        glyph(for: index(of: "H"), size: size)?.top ?? size * 3 / 4
    }

    /// The font's ascender and descender (positive, below the baseline) at `size`, in pixels.
    public func verticalMetrics(size: Int) -> (ascender: Int, descender: Int) {
        let unitsPerEM = Double(max(1, face.pointee.units_per_EM))
        let ascender = Double(face.pointee.ascender) / unitsPerEM * Double(size)
        let descender = -Double(face.pointee.descender) / unitsPerEM * Double(size)
        return (Int(ascender.rounded(.up)), Int(descender.rounded(.up)))
    }

    /// The width of `text` set at `size` pixels, with kerning.
    public func width(of text: String, size: Int) -> Int {
        var pen = 0
        forEachGlyph(text, size: size) { _, position in pen = position }
        return pen
    }

    /// Calls `body` with each glyph index and the pen position (pixels) before it; after the last glyph,
    /// once more with index `nil` and the end position.
    func forEachGlyph(_ text: String, size: Int, _ body: (UInt32?, Int) -> Void) {
        var pen = 0  // 26.6 fixed point
        var previous: UInt32 = 0
        for scalar in text.unicodeScalars {
            let glyphIndex = index(of: scalar)
            if hasKerning, previous != 0, glyphIndex != 0 {
                setSize(size)
                var kerning = FT_Vector()
                if FT_Get_Kerning(face, previous, glyphIndex, UInt32(FT_KERNING_DEFAULT.rawValue), &kerning) == 0 {
                    pen += Int(kerning.x)
                }
            }
            body(glyphIndex, (pen + 32) >> 6)
            pen += advance(of: glyphIndex, size: size)
            previous = glyphIndex
        }
        body(nil, (pen + 32) >> 6)
    }

    func index(of scalar: Unicode.Scalar) -> UInt32 {
        if let known = glyphIndices[scalar] { return known }
        let found = UInt32(FT_Get_Char_Index(face, FT_ULong(scalar.value)))
        glyphIndices[scalar] = found
        return found
    }

    /// The advance in 26.6 fixed point. The corresponding C function is `FT_Load_Glyph`.
    private func advance(of glyphIndex: UInt32, size: Int) -> Int {
        let key = GlyphKey(size: size, index: glyphIndex)
        if let known = advances[key] { return known }
        setSize(size)
        guard FT_Load_Glyph(face, glyphIndex, loadFlags) == 0 else { return 0 }
        let value = Int(face.pointee.glyph.pointee.advance.x)
        advances[key] = value
        return value
    }

    /// The rendered glyph, from the cache or rasterised once. The corresponding C functions are
    /// `FT_Load_Glyph` with `FT_LOAD_RENDER`.
    func glyph(for glyphIndex: UInt32, size: Int) -> Glyph? {
        let key = GlyphKey(size: size, index: glyphIndex)
        if let known = glyphs[key] { return known }
        setSize(size)
        guard FT_Load_Glyph(face, glyphIndex, loadFlags | Int32(FT_LOAD_RENDER)) == 0 else { return nil }
        let slot = face.pointee.glyph.pointee
        let bitmap = slot.bitmap
        let width = Int(bitmap.width)
        let rows = Int(bitmap.rows)
        var coverage = [UInt8](repeating: 0, count: width * rows)
        if let buffer = bitmap.buffer, width > 0, rows > 0, bitmap.pixel_mode == UInt8(FT_PIXEL_MODE_GRAY.rawValue) {
            let pitch = Int(bitmap.pitch)
            for row in 0..<rows {
                let start = pitch >= 0 ? row * pitch : (rows - 1 - row) * -pitch
                for column in 0..<width { coverage[row * width + column] = buffer[start + column] }
            }
        }
        let glyph = Glyph(
            width: width, rows: rows, left: Int(slot.bitmap_left), top: Int(slot.bitmap_top), coverage: coverage)
        if glyphs.count >= Self.glyphCacheLimit { glyphs.removeAll(keepingCapacity: true) }
        glyphs[key] = glyph
        return glyph
    }

    /// The corresponding C function is `FT_Set_Pixel_Sizes`.
    private func setSize(_ size: Int) {
        guard size != currentSize else { return }
        FT_Set_Pixel_Sizes(face, 0, FT_UInt(size))
        currentSize = size
    }
}
