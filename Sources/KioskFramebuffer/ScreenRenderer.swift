import Foundation
import GrayImage
import ImageFiles
import KioskCore

/// Lays out and draws the door's screens (`DoorScreen`) on a `Canvas` of any size and pixel layout,
/// with FreeType text: the same pictures on the framebuffer, in PNG files and in tests.
///
/// Sizes follow the screen: `unit` is the height (or 5/8 of the width on a tall screen), and a guest's
/// name is set at up to 18 % of it. Keeps glyph caches: use from one task at a time.
public final class ScreenRenderer {
    public let fonts: FontSet
    /// Flip the camera picture left to right, like a selfie camera (only the picture; the decoder sees the frame).
    public var mirrorsPreview: Bool
    private let timeFormatter: DateFormatter

    /// - Parameters:
    ///   - fonts: loaded faces (see `FontSet.init(_:)`).
    ///   - timeZone: for the time of an earlier check-in.
    public init(fonts: FontSet, timeZone: TimeZone = .current, mirrorsPreview: Bool = true) {
        self.fonts = fonts
        self.mirrorsPreview = mirrorsPreview
        timeFormatter = DateFormatter()
        timeFormatter.locale = Locale(identifier: "en_US_POSIX")
        timeFormatter.timeZone = timeZone
        timeFormatter.dateFormat = "HH:mm:ss"
    }

    /// Loads the fonts of `configuration` (DejaVu Sans by default).
    public convenience init(
        fonts configuration: FontConfiguration = .dejaVu, timeZone: TimeZone = .current, mirrorsPreview: Bool = true
    ) throws(FramebufferError) {
        self.init(fonts: try FontSet(configuration), timeZone: timeZone, mirrorsPreview: mirrorsPreview)
    }

    /// Where everything on `screen` goes at `width` x `height`.
    public func layout(_ screen: DoorScreen, width: Int, height: Int) -> ScreenLayout {
        let metrics = Metrics(width: width, height: height)
        switch screen {
        case .ready(let status):
            return readyLayout(status, metrics)
        case .verdict(let result, let status):
            return verdictLayout(result.verdict, status, metrics)
        case .confirm(let guest, let arrived):
            return confirmLayout(guest, arrived: arrived, metrics)
        case .manualEntry(let query, let matches, let message):
            return manualEntryLayout(query: query, matches: matches, message: message, metrics)
        case .undo(let recent, let message):
            return undoLayout(recent, message: message, metrics)
        }
    }

    /// Draws a laid-out screen: background, boxes, text, status bar. The camera picture is `drawPreview`'s.
    public func draw(_ layout: ScreenLayout, on canvas: inout Canvas) {
        canvas.clear(to: layout.background)
        for box in layout.boxes { canvas.fill(box.rect, with: box.color) }
        for text in layout.texts {
            canvas.draw(text.text, font: fonts[text.weight], in: text.frame, color: text.color, centred: text.centred)
        }
        if let bar = layout.statusBar { drawStatusBar(bar, on: &canvas) }
    }

    /// Draws the status bar only: for a preview whose status line changed.
    public func drawStatusBar(_ bar: ScreenLayout.StatusBar, on canvas: inout Canvas) {
        canvas.fill(bar.rect, with: bar.background)
        let font = fonts.regular
        let widths = bar.segments.map { font.width(of: $0.text, size: bar.size) }
        var x = bar.rect.midX - widths.reduce(0, +) / 2
        let baseline = bar.rect.midY + font.capHeight(size: bar.size) / 2
        for (segment, width) in zip(bar.segments, widths) {
            canvas.draw(segment.text, font: font, size: bar.size, x: x, baseline: baseline, color: segment.color)
            x += width
        }
    }

    /// Renders `screen` into `canvas` (any size and layout); `preview` is the camera picture for `.ready`.
    public func render(
        _ screen: DoorScreen, into canvas: inout Canvas, preview: GrayFrame? = nil
    ) {
        let layout = layout(screen, width: canvas.width, height: canvas.height)
        draw(layout, on: &canvas)
        if let preview, layout.previewArea != nil {
            var scaler = GrayScaler()
            drawPreview(preview, in: layout, on: &canvas, scaler: &scaler)
        }
    }

    /// A new canvas with `screen` on it; 32 bpp XRGB unless `pixelLayout` says otherwise.
    public func render(
        _ screen: DoorScreen, width: Int, height: Int, pixelLayout: PixelLayout? = nil, preview: GrayFrame? = nil
    ) -> Canvas {
        var canvas = Canvas(width: width, height: height, layout: pixelLayout ?? .xrgb8888(width: width))
        render(screen, into: &canvas, preview: preview)
        return canvas
    }

    /// `screen` as an 8-bit RGB PNG file's bytes: for tests, documentation and bug reports.
    public func renderPNG(
        _ screen: DoorScreen, width: Int, height: Int, preview: GrayFrame? = nil
    ) throws(ImageError) -> [UInt8] {
        let canvas = render(screen, width: width, height: height, preview: preview)
        return try ImageFile.encodeRGBPNG(width: width, height: height, pixels: canvas.rgbPixels())
    }

    func timeText(_ date: Date) -> String {
        timeFormatter.string(from: date)
    }
}

/// Sizes of one screen, in pixels, derived from its size.
struct Metrics {
    let width: Int
    let height: Int
    /// The height, or 5/8 of the width on a narrow screen: every type size is a fraction of it.
    let unit: Int
    let margin: Int

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        unit = max(1, min(height, width * 5 / 8))
        margin = max(8, width / 24)
    }

    /// `unit / divisor`, at least 1.
    func size(_ divisor: Double) -> Int { max(1, Int((Double(unit) / divisor).rounded())) }
    var bounds: Rect { Rect(x: 0, y: 0, width: width, height: height) }
    var statusBarHeight: Int { size(16) }
}
