import CheckinCore
import Foundation

/// The dashboard's chart as SVG, drawn on the server: stacked bars of check-ins per bar width (5 minutes or wider for a long event), one colour per
/// door, a legend, hour marks. Plain markup, no script, no library fetched by the browser.
enum ArrivalChart {
    /// Door colours, each dark enough for white text and distinct from the others.
    static let palette = ["#1f4fd1", "#b3261e", "#1c6b3a", "#7a3fb0", "#a15c00", "#00707a", "#5a5f6b", "#c2185b"]

    static func svg(_ histogram: ArrivalHistogram, timeText: TimeText) -> String {
        // 480 units wide: on a 360 px phone its 14-unit labels are still 10 px.
        let width = 480.0
        let height = 220.0
        let left = 36.0
        let bottom = 30.0
        let top = 12.0
        guard !histogram.counts.isEmpty else {
            return """
                <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(Int(width)) 60" role="img" \
                aria-label="No check-ins yet" class="chart"><text x="8" y="34">No check-ins yet.</text></svg>
                """
        }
        let plotWidth = width - left - 8
        let plotHeight = height - top - bottom
        let peak = max(histogram.peak, 1)
        let step = plotWidth / Double(histogram.counts.count)
        let total = histogram.counts.joined().reduce(0, +)
        let marks = markInterval(span: Double(histogram.counts.count) * histogram.bucket)
        var parts: [String] = []
        parts.append(
            """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(Int(width)) \(Int(height + 24))" role="img" \
            aria-label="\(total) check-ins in \(Int(histogram.bucket / 60))-minute bars by door since \(timeText.time(histogram.start))" class="chart">
            """)
        // The y axis: zero and the peak.
        parts.append(line(left, top, left, top + plotHeight))
        parts.append(line(left, top + plotHeight, left + plotWidth, top + plotHeight))
        parts.append(label(left - 4, top + 10, "\(peak)", anchor: "end"))
        parts.append(label(left - 4, top + plotHeight, "0", anchor: "end"))
        for (index, bucket) in histogram.counts.enumerated() {
            let x = left + Double(index) * step
            var y = top + plotHeight
            for (door, count) in bucket.enumerated() where count > 0 {
                let barHeight = plotHeight * Double(count) / Double(peak)
                y -= barHeight
                let from = histogram.start.addingTimeInterval(Double(index) * histogram.bucket)
                parts.append(
                    """
                    <rect x="\(fmt(x + 1))" y="\(fmt(y))" width="\(fmt(max(step - 2, 1)))" height="\(fmt(barHeight))" \
                    fill="\(palette[door % palette.count])"><title>\(HTMLText.escape(histogram.doors[door])): \(count) at \
                    \(timeText.time(from))</title></rect>
                    """)
            }
            // Time marks: the first bar, then whole multiples of an interval of local time (about five along the
            // axis), none too close to the first.
            let from = histogram.start.addingTimeInterval(Double(index) * histogram.bucket)
            let local = Int(from.timeIntervalSince1970) + timeText.offset(at: from)
            if index == 0 || (local % marks == 0 && Double(index) * histogram.bucket >= Double(marks) / 2) {
                parts.append(label(x, top + plotHeight + 18, timeText.time(from), anchor: "start"))
            }
        }
        // The legend under the plot.
        var legendX = left
        for (index, door) in histogram.doors.enumerated() {
            parts.append(
                """
                <rect x="\(fmt(legendX))" y="\(fmt(height + 6))" width="12" height="12" \
                fill="\(palette[index % palette.count])"/>
                """)
            parts.append(label(legendX + 16, height + 16, door, anchor: "start"))
            legendX += 28 + Double(door.count) * 8.5
        }
        parts.append("</svg>")
        return parts.joined(separator: "\n")
    }

    /// The interval between time marks (seconds): the shortest of 15 min, 30 min, 1 h, 2 h, 4 h that gives at
    /// most 5 marks over `span`.
    static func markInterval(span: TimeInterval) -> Int {
        [900, 1800, 3600, 7200, 14400].first { span / Double($0) <= 5 } ?? 28800
    }

    private static func line(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> String {
        "<line x1=\"\(fmt(x1))\" y1=\"\(fmt(y1))\" x2=\"\(fmt(x2))\" y2=\"\(fmt(y2))\" stroke=\"#4a5563\"/>"
    }

    private static func label(_ x: Double, _ y: Double, _ text: String, anchor: String) -> String {
        "<text x=\"\(fmt(x))\" y=\"\(fmt(y))\" font-size=\"14\" text-anchor=\"\(anchor)\" fill=\"#14181f\">\(HTMLText.escape(text))</text>"
    }

    private static func fmt(_ value: Double) -> String { String(format: "%.1f", value) }
}
