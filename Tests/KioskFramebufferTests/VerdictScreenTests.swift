import Foundation
import ImageFiles
import KioskCore
import KioskFramebuffer
import Testing

@Suite struct VerdictScreenTests {
    let renderer = ScreenFixtures.renderer
    let width = ScreenFixtures.width
    let height = ScreenFixtures.height

    static let verdicts: [(String, Verdict)] = [
        ("admitted", .admitted(ScreenFixtures.ada, arrived: 3)),
        ("awaiting confirmation", .awaitingConfirmation(ScreenFixtures.ada)),
        ("already checked in", .alreadyCheckedIn(ScreenFixtures.grace, at: ScreenFixtures.earlier, door: "South door")),
        ("not valid here", .notValidHere),
        ("cancelled", .cancelled(ScreenFixtures.ada)),
        ("cancelled, unknown guest", .cancelled(nil)),
        ("not in roster", .notInRoster),
        ("record failed", .recordFailed("disk full")),
    ]

    @Test(arguments: verdicts.map(\.0))
    func backgroundIsTheVerdictsColour(_ name: String) {
        let verdict = Self.verdicts.first { $0.0 == name }!.1
        let canvas = renderer.render(ScreenFixtures.verdict(verdict), width: width, height: height)
        let (colour, share) = dominantColour(canvas)
        #expect(colour == ScreenPalette.field(for: verdict), "\(name)")
        #expect(share > 0.6, "\(name): the field covers only \(share * 100) %")
    }

    @Test func coloursAreGreenAmberRedBlue() {
        #expect(ScreenPalette.field(for: .admitted(ScreenFixtures.ada, arrived: 1)) == ScreenPalette.green)
        #expect(ScreenPalette.field(for: .awaitingConfirmation(ScreenFixtures.ada)) == ScreenPalette.green)
        #expect(
            ScreenPalette.field(for: .alreadyCheckedIn(ScreenFixtures.ada, at: ScreenFixtures.earlier, door: "x"))
                == ScreenPalette.amber)
        #expect(ScreenPalette.field(for: .notValidHere) == ScreenPalette.red)
        #expect(ScreenPalette.field(for: .cancelled(nil)) == ScreenPalette.red)
        #expect(ScreenPalette.field(for: .recordFailed("x")) == ScreenPalette.red)
        #expect(ScreenPalette.field(for: .notInRoster) == ScreenPalette.blue)
    }

    @Test(arguments: verdicts.map(\.0))
    func guestsNameIsLargeAndDrawnInTheNameBand(_ name: String) throws {
        let verdict = Self.verdicts.first { $0.0 == name }!.1
        let screen = ScreenFixtures.verdict(verdict)
        let layout = renderer.layout(screen, width: width, height: height)
        guard let guest = verdict.guest else {
            #expect(layout.frame(of: .name) == nil)
            return
        }
        let text = try #require(layout.text(of: .name))
        #expect(text.text.lines == [guest.name])
        #expect(text.text.size >= height / 8, "name set at \(text.text.size) px")
        #expect(text.frame.midY > height / 5 && text.frame.midY < height * 3 / 5, "name band \(text.frame)")
        let canvas = renderer.render(screen, width: width, height: height)
        let inked = inkedShare(canvas, in: text.frame, background: layout.background)
        #expect(inked > 0.15, "only \(inked * 100) % of the name band is ink")
        // And nothing but the field just above the headline.
        #expect(inkedShare(canvas, in: Rect(x: 0, y: 0, width: width, height: 8), background: layout.background) == 0)
    }

    @Test func partyReasonAndDetailAreShown() throws {
        let layout = renderer.layout(
            ScreenFixtures.verdict(
                .alreadyCheckedIn(ScreenFixtures.grace, at: ScreenFixtures.earlier, door: "South door")),
            width: width, height: height)
        #expect(layout.text(of: .headline)?.text.lines == ["ALREADY CHECKED IN"])
        #expect(layout.text(of: .party)?.text.lines == ["Party of 2"])
        #expect(try #require(layout.text(of: .party)).text.size >= height / 12)
        #expect(layout.text(of: .reason)?.text.lines == ["This pass was already used"])
        #expect(layout.text(of: .detail)?.text.lines == ["Checked in 13:07:21 at South door"])
        #expect(layout.text(of: .notes)?.text.lines == ["Notes: Wheelchair access; speaker at 14:00"])
        let bar = try #require(layout.statusBar)
        #expect(
            bar.segments.map(\.text).joined()
                == "North door   ·   auto   ·   OFFLINE   ·   4 pending   ·   camera: streaming")
    }

    @Test func longNameShrinksToFitTheWidth() throws {
        let short = renderer.layout(
            ScreenFixtures.verdict(.admitted(ScreenFixtures.ada, arrived: 1)), width: width, height: height)
        let longName = "Alexander Hamilton"
        let long = renderer.layout(
            ScreenFixtures.verdict(.admitted(ScreenFixtures.guest(longName), arrived: 1)), width: width, height: height)
        let shortText = try #require(short.text(of: .name))
        let longText = try #require(long.text(of: .name))
        #expect(longText.text.lines == [longName], "still one line")
        #expect(longText.text.size < shortText.text.size)
        #expect(longText.text.size >= height / 8)
        #expect(longText.frame.x >= 0 && longText.frame.maxX <= width)
        #expect(longText.text.width <= width - 2 * (width / 24))
    }

    @Test func veryLongNameBreaksThenEndsWithEllipsis() throws {
        let twoLines = "Maria Magdalena Konstantinopoulou-Vanderbilt"
        let layout = renderer.layout(
            ScreenFixtures.verdict(.admitted(ScreenFixtures.guest(twoLines), arrived: 1)), width: width, height: height)
        let text = try #require(layout.text(of: .name))
        #expect(text.text.lines.count == 2)
        #expect(text.text.lines.joined(separator: " ") == twoLines)
        #expect(text.text.lineWidths.allSatisfy { $0 <= width - 2 * (width / 24) })
        #expect(text.text.size >= height / 16)

        let absurd = String(repeating: "W", count: 300)
        let cut = try #require(
            renderer.layout(
                ScreenFixtures.verdict(.admitted(ScreenFixtures.guest(absurd), arrived: 1)), width: width,
                height: height
            ).text(of: .name))
        #expect(cut.text.lines.allSatisfy { $0.hasSuffix("…") })
        #expect(cut.text.lineWidths.allSatisfy { $0 <= width - 2 * (width / 24) })
    }

    @Test func everythingStaysOnScreenAtOtherSizes() {
        for (w, h) in [(800, 480), (640, 480), (1920, 1080), (480, 800)] {
            for (_, screen) in ScreenFixtures.screens {
                let layout = renderer.layout(screen, width: w, height: h)
                for text in layout.texts {
                    #expect(
                        text.frame.x >= 0 && text.frame.maxX <= w && text.frame.y >= 0 && text.frame.maxY <= h,
                        "\(w)x\(h) \(text.role) at \(text.frame)")
                }
            }
        }
    }
}

/// The most common colour and its share of the canvas.
func dominantColour(_ canvas: Canvas) -> (RGBColor, Double) {
    var counts: [RGBColor: Int] = [:]
    for y in stride(from: 0, to: canvas.height, by: 2) {
        for x in stride(from: 0, to: canvas.width, by: 2) { counts[canvas.color(x: x, y: y), default: 0] += 1 }
    }
    let best = counts.max { $0.value < $1.value }!
    return (best.key, Double(best.value) / Double(counts.values.reduce(0, +)))
}

/// The share of pixels in `rect` that differ from `background` by more than 48 in some channel.
func inkedShare(_ canvas: Canvas, in rect: Rect, background: RGBColor) -> Double {
    let area = rect.intersection(canvas.bounds)
    guard !area.isEmpty else { return 0 }
    var inked = 0
    for y in area.y..<area.maxY {
        for x in area.x..<area.maxX {
            let c = canvas.color(x: x, y: y)
            if abs(Int(c.red) - Int(background.red)) > 48 || abs(Int(c.green) - Int(background.green)) > 48
                || abs(Int(c.blue) - Int(background.blue)) > 48
            {
                inked += 1
            }
        }
    }
    return Double(inked) / Double(area.width * area.height)
}

extension VerdictScreenTests {
    /// Writes the long-name screens next to the reference pictures' copies, for people to look at.
    @Test func longNameSamples() throws {
        let dir = ReferenceScreenTests.outputDirectory
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        for (file, name) in [
            ("long-name", "Alexander Hamilton"), ("very-long-name", "Maria Magdalena Konstantinopoulou-Vanderbilt"),
        ] {
            let png = try renderer.renderPNG(
                ScreenFixtures.verdict(
                    .alreadyCheckedIn(
                        ScreenFixtures.guest(name, party: 2), at: ScreenFixtures.earlier, door: "South door")),
                width: width, height: height)
            try ImageFile.writeRGBPNG(png: png, to: "\(dir)/\(file).png")
        }
    }
}
