import NearbyBytes

/// Draws a `Timeline` as one self-contained HTML file: inline SVG, style sheet and script, no
/// external resource. Each mark is an SVG element of class `m` and its style, with its
/// explanation as a `title` (shown by the browser, and by the script in the panel at the
/// bottom). Bars are drawn one each, however many; ticks closer than `tickColumn` pixels on a
/// lane are drawn as one aggregate (`data-n` says how many), so that a lane holds at most
/// `plotWidth / tickColumn` tick elements whatever the number of sightings.
public enum TimelineHTML {
    /// The plot's width and the label column's, pixels.
    public static let plotWidth = 1200.0
    static let labelWidth = 300.0
    static let laneHeight = 18.0
    /// The height of a lane that plots RSSI over time (`Lane.plotsValues`), pixels.
    static let valueLaneHeight = 40.0
    static let groupHeight = 24.0
    static let axisHeight = 28.0
    /// Ticks whose x fall in the same column of this many pixels are aggregated.
    public static let tickColumn = 2.0

    public static func render(_ timeline: Timeline) -> String {
        var out = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
        out += "<title>\(escape(timeline.title))</title>\n<style>\n\(TimelineAssets.css)\n</style></head><body>\n"
        out += "<h1>\(escape(timeline.title))</h1>\n"
        for note in timeline.notes { out += "<p class=\"note\">\(escape(note))</p>\n" }
        out += legend(timeline)
        let lanes = timeline.groups.flatMap(\.lanes).reduce(0.0) { $0 + Self.height(of: $1) }
        let svgHeight = axisHeight + Double(timeline.groups.count) * groupHeight + lanes + 8
        let width = labelWidth + plotWidth + 20
        out += "<svg width=\"\(Int(width))\" height=\"\(Int(svgHeight))\" role=\"img\">\n"
        let scale = Scale(timeline)
        drawAxis(scale, timeline, height: svgHeight, into: &out)
        var y = axisHeight
        for group in timeline.groups {
            out += "<text class=\"group\" x=\"4\" y=\"\(px(y + 16))\">\(escape(group.title))</text>\n"
            y += groupHeight
            for lane in group.lanes {
                drawLane(lane, y: y, scale, into: &out)
                y += height(of: lane)
            }
        }
        out += "</svg>\n<div id=\"info\">Hover over a mark to read why; click to keep it here.</div>\n"
        out += "<script>\n\(TimelineAssets.script)\n</script>\n</body></html>\n"
        return out
    }

    static func height(of lane: Timeline.Lane) -> Double { lane.plotsValues ? valueLaneHeight : laneHeight }

    /// What each style means, in the legend's order.
    static let legendEntries: [(Timeline.Style, String)] = [
        (.found, "found until lost"), (.foundOpen, "still found at the end"), (.active, "subscribed"),
        (.counted, "sighting counted"), (.notCounted, "sighting not counted"), (.seen, "seen (RSSI)"),
        (.state, "state that stops scanning"), (.expiry, "expired"), (.error, "error"), (.event, "other callback"),
    ]

    /// The legend of the styles the timeline uses.
    static func legend(_ timeline: Timeline) -> String {
        var used = Set<Timeline.Style>()
        for lane in timeline.groups.flatMap(\.lanes) { for mark in lane.marks { used.insert(mark.style) } }
        let spans = legendEntries.filter { used.contains($0.0) }.map { style, text in
            "<span><i class=\"\(style.rawValue)\"></i>\(text)</span>"
        }
        return "<p class=\"legend\">" + spans.joined() + "</p>\n"
    }

    /// The tick column of `micros` on `timeline`'s axis: ticks in the same column are drawn as
    /// one, so a producer with many may aggregate them itself, column by column.
    public static func tickColumn(of micros: Int64, in timeline: Timeline) -> Int { Scale(timeline).column(micros) }

    /// Maps axis time to x.
    struct Scale {
        let start: Int64
        let span: Double
        let axisOrigin: Int64

        init(_ t: Timeline) {
            start = t.startMicros
            axisOrigin = t.axisOriginMicros
            span = Double(max(1, t.endMicros - t.startMicros))
        }

        /// The tick column of `micros`: ticks in the same one are drawn as one.
        func column(_ micros: Int64) -> Int { Int((x(micros) - labelWidth) / tickColumn) }

        func x(_ micros: Int64) -> Double {
            let f = (Double(micros) - Double(start)) / span
            return labelWidth + min(1, max(0, f)) * plotWidth
        }
    }

    /// The axis's tick spacings, seconds: the smallest that gives at most 12 ticks.
    static let axisSteps: [Double] = [
        1e-3, 2e-3, 5e-3, 1e-2, 2e-2, 5e-2, 0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600,
        7200, 14400, 43200, 86400,
    ]

    static func drawAxis(_ scale: Scale, _ t: Timeline, height: Double, into out: inout String) {
        let spanSeconds = scale.span / 1e6
        var step = 1e-3
        for candidate in axisSteps where spanSeconds / candidate <= 12 {
            step = candidate
            break
        }
        if spanSeconds / step > 12 { step = (spanSeconds / 12).rounded(.up) }
        let decimals = step >= 1 ? 0 : step >= 0.1 ? 1 : step >= 0.01 ? 2 : 3
        let origin = Double(t.axisOriginMicros) / 1e6
        let first = ((Double(t.startMicros) / 1e6 - origin) / step).rounded(.up) * step
        var s = first
        while (s + origin) * 1e6 <= Double(t.endMicros) + 0.5 {
            let x = scale.x(Int64(((s + origin) * 1e6).rounded()))
            out += "<line class=\"grid\" x1=\"\(px(x))\" y1=\"\(px(axisHeight - 6))\" x2=\"\(px(x))\" "
            out += "y2=\"\(px(height))\"/><text class=\"axis\" x=\"\(px(x + 2))\" y=\"14\">"
            out += "\(format(s, decimals)) s</text>\n"
            s += step
        }
        out += "<text class=\"axis\" x=\"4\" y=\"14\">\(escape(t.axisLabel))</text>\n"
    }

    static func drawLane(_ lane: Timeline.Lane, y: Double, _ scale: Scale, into out: inout String) {
        let h = height(of: lane)
        out += "<g class=\"lane\"><rect class=\"lane\" x=\"\(px(labelWidth))\" y=\"\(px(y + 1))\" "
        out += "width=\"\(px(plotWidth))\" height=\"\(px(h - 2))\"/>"
        out += "<text x=\"12\" y=\"\(px(y + 13))\">\(escape(clip(lane.label)))"
        out += "<title>\(escape(lane.label))</title></text>\n"
        for mark in lane.marks where mark.shape == .band { drawSpan(mark, y: y, scale, into: &out) }
        for mark in lane.marks where mark.shape == .bar { drawSpan(mark, y: y, scale, into: &out) }
        var column: [Timeline.Mark] = []
        var columnIndex = -1
        for mark in lane.marks where mark.shape == .tick {
            let c = scale.column(mark.startMicros)
            if c != columnIndex, !column.isEmpty {
                drawTicks(column, y: y, h: h, scale, values: lane.plotsValues, into: &out)
                column.removeAll(keepingCapacity: true)
            }
            columnIndex = c
            column.append(mark)
        }
        if !column.isEmpty { drawTicks(column, y: y, h: h, scale, values: lane.plotsValues, into: &out) }
        for mark in lane.marks where mark.shape == .point {
            let x = scale.x(mark.startMicros), m = y + h / 2
            out += "<path class=\"m \(mark.style.rawValue)\" d=\"M\(px(x)) \(px(m - 6))l5 6l-5 6l-5 -6z\">"
            out += "<title>\(escape(mark.text))</title></path>\n"
        }
        out += "</g>\n"
    }

    static func drawSpan(_ mark: Timeline.Mark, y: Double, _ scale: Scale, into out: inout String) {
        let x0 = scale.x(mark.startMicros), x1 = scale.x(mark.endMicros ?? mark.startMicros)
        let inset = mark.shape == .bar ? 3.0 : 1.0
        out += "<rect class=\"m \(mark.shape.rawValue) \(mark.style.rawValue)\" x=\"\(px(x0))\" y=\"\(px(y + inset))\" "
        out += "width=\"\(px(max(1, x1 - x0)))\" height=\"\(px(laneHeight - 2 * inset))\">"
        out += "<title>\(escape(mark.text))</title></rect>\n"
    }

    /// The height of a tick of RSSI `value` in a lane `h` pixels high: -100 dBm and below 3 px,
    /// -30 dBm and above the lane's height; 8 px when the RSSI is not known.
    static func tickHeight(_ value: Int?, _ h: Double) -> Double {
        guard let v = value else { return 8 }
        let f = (Double(min(-30, max(-100, v))) + 100) / 70
        return 3 + f * (h - 5)
    }

    /// Draws the ticks of one column: one tick, or an aggregate saying how many and their
    /// RSSI range. Lanes that plot values draw the range of their RSSI instead.
    static func drawTicks(
        _ ticks: [Timeline.Mark], y: Double, h: Double, _ scale: Scale, values: Bool, into out: inout String
    ) {
        let x = scale.x(ticks[0].startMicros)
        let high = ticks.compactMap(\.value).max()
        let low = ticks.compactMap { $0.lowValue ?? $0.value }.min()
        let count = ticks.reduce(0) { $0 + $1.count }
        let style = ticks.contains { $0.style == .counted } ? Timeline.Style.counted : ticks[0].style
        let top: Double, bottom: Double
        if values, let low, let high {
            top = y + h - 1 - tickHeight(high, h)
            bottom = y + h - 1 - tickHeight(low, h) + 2
        } else {
            top = y + h - 1 - tickHeight(high, h)
            bottom = y + h - 1
        }
        let text: String
        if count == 1 {
            text = ticks[0].text
        } else {
            let last = ticks[ticks.count - 1]
            let seconds = { (t: Int64) in format(Double(t - scale.axisOrigin) / 1e6, 6) }
            var head = "\(count) at \(seconds(ticks[0].startMicros))–\(seconds(last.endMicros ?? last.startMicros)) s"
            if let low, let high { head += ", RSSI \(low)…\(high) dBm" }
            if ticks.contains(where: { $0.style == .counted || $0.style == .notCounted }) {
                let counted = ticks.reduce(0) { $0 + ($1.style == .counted ? $1.count : 0) }
                head += ", \(counted) counted, \(count - counted) not"
            }
            text =
                ticks.count == 1
                ? head + "\n" + ticks[0].text : head + "\nfirst: " + ticks[0].text + "\nlast: " + last.text
        }
        let n = count > 1 ? " data-n=\"\(count)\"" : ""
        out += "<rect class=\"m tick \(style.rawValue)\"\(n) x=\"\(px(x - 0.5))\" y=\"\(px(top))\" width=\""
        out += "\(count > 1 ? "2" : "1")\" height=\"\(px(max(1, bottom - top)))\"><title>\(escape(text))"
        out += "</title></rect>\n"
    }

    /// `text` for HTML text and attribute values (`MarkupText.escape`).
    static func escape(_ text: String) -> String { MarkupText.escape(text) }

    static func clip(_ label: String) -> String { label.count <= 44 ? label : String(label.prefix(43)) + "…" }

    /// One decimal.
    static func px(_ v: Double) -> String { format(v, 1) }

    static func format(_ v: Double, _ decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let n = Int64((abs(v) * scale).rounded())
        let sign = v < 0 && n != 0 ? "-" : ""
        let whole = n / Int64(scale)
        guard decimals > 0 else { return sign + String(whole) }
        let fraction = String(n % Int64(scale))
        return sign + String(whole) + "." + String(repeating: "0", count: decimals - fraction.count) + fraction
    }
}
