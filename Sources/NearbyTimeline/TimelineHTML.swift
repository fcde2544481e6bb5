import NearbyBytes
import NearbyJSON
import NearbyText

/// Draws a `Timeline` as one self-contained HTML file: inline SVG, style sheet and script, no
/// external resource. Each lane is a `g.lane` holding its label (wrapped, never cut; the full
/// text also as its `title`) and a nested `svg.plot` whose `g.z` holds the marks at x on the
/// unzoomed plot (`TimelineScale`); the script scales and shifts every `g.z` to the window's
/// width and the reader's zoom, and draws the axis. Each mark is an element of class `m` and its
/// style, with its explanation as a `title`. Bars are drawn one each, however many; ticks in
/// the same column (`tickColumn / detail` pixels) are drawn as one aggregate (`data-n` says how
/// many), so a lane holds at most `columns × detail` tick elements whatever the number of
/// sightings; the script reads ticks closer than 2 pixels at the zoom shown as one.
public enum TimelineHTML {
    /// The unzoomed plot's width and the label column's, pixels.
    public static let plotWidth = 1200.0
    static let labelWidth = 300.0
    /// A lane's height when its label takes one line, and one that plots RSSI over time
    /// (`Lane.plotsValues`), pixels; a label of more lines adds `labelLineHeight` each.
    static let laneHeight = 18.0
    static let valueLaneHeight = 40.0
    static let labelLineHeight = 13.0
    /// The label's monospace advance, pixels (11 px type), which decides where labels wrap.
    static let labelCharacterWidth = 6.7
    static let groupHeight = 24.0
    /// The space collapsed time between two segments takes on the unzoomed plot, pixels.
    public static let gapWidth = 16.0
    /// Ticks whose x fall in the same column of this many pixels (at `detail` 1) are aggregated.
    public static let tickColumn = 2.0
    /// The tick columns of the unzoomed plot at `detail` 1.
    public static let columns = Int(plotWidth / tickColumn)

    public static func render(_ timeline: Timeline) -> String {
        let scale = TimelineScale(timeline)
        var out = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
        out += "<meta name=\"viewport\" content=\"width=device-width\">\n"
        out += "<title>\(escape(timeline.title))</title>\n<style>\n\(TimelineAssets.css)\n</style></head><body>\n"
        out += "<h1>\(escape(timeline.title))</h1>\n"
        for note in timeline.notes { out += "<p class=\"note\">\(escape(note))</p>\n" }
        out += legend(timeline)
        out += TimelineAssets.controls
        let axisHeight = scale.pieces.count > 1 ? 40.0 : 28.0
        let lanes = timeline.groups.flatMap(\.lanes).reduce(0.0) { $0 + Self.height(of: $1) }
        let svgHeight = axisHeight + Double(timeline.groups.count) * groupHeight + lanes + 8
        out += "<svg id=\"timeline\" width=\"\(Int(labelWidth + plotWidth + 12))\" height=\"\(Int(svgHeight))\" "
        out += "data-label-width=\"\(Int(labelWidth))\" data-plot-width=\"\(Int(plotWidth))\" "
        out += "data-axis-height=\"\(Int(axisHeight))\" data-detail=\"\(timeline.detail)\" role=\"img\">\n"
        out += "<g id=\"axis\"></g>\n"
        out += "<text class=\"axis\" x=\"4\" y=\"\(px(axisHeight - 14))\">\(escape(timeline.axisLabel))</text>\n"
        var y = axisHeight
        for group in timeline.groups {
            out += "<text class=\"group\" x=\"4\" y=\"\(px(y + 16))\">\(escape(group.title))</text>\n"
            y += groupHeight
            for lane in group.lanes {
                drawLane(lane, y: y, scale, into: &out)
                y += height(of: lane)
            }
        }
        out += "</svg>\n"
        for table in timeline.tables { out += render(table) }
        out += "<div id=\"info\">Hover over a mark to read why; click to keep it here.</div>\n"
        out += "<script type=\"application/json\" id=\"timeline-axis\">\(axisJSON(scale))</script>\n"
        out += "<script>\n\(TimelineAssets.script)\n</script>\n</body></html>\n"
        return out
    }

    /// A table as `<table class="data">` under an `<h2>`: head cells `th`, the rest `td`.
    static func render(_ table: Timeline.Table) -> String {
        var out = "<h2>\(escape(table.title))</h2>\n"
        if !table.note.isEmpty { out += "<p class=\"note\">\(escape(table.note))</p>\n" }
        out += "<table class=\"data\"><thead><tr>"
        for column in table.columns { out += "<th>\(escape(column))</th>" }
        out += "</tr></thead><tbody>\n"
        for row in table.rows {
            out += "<tr>"
            for i in table.columns.indices { out += "<td>\(i < row.count ? escape(row[i]) : "")</td>" }
            out += "</tr>\n"
        }
        return out + "</tbody></table>\n"
    }

    /// The lane's height: its base height, or more when its label wraps to more lines.
    static func height(of lane: Timeline.Lane) -> Double {
        max(baseHeight(of: lane), Double(labelLines(lane.label).lines.count) * labelLineHeight + 5)
    }

    static func baseHeight(of lane: Timeline.Lane) -> Double { lane.plotsValues ? valueLaneHeight : laneHeight }

    /// A label's indentation (its leading spaces, pixels) and its text in lines that fit the
    /// label column, broken after a space, `/` or `·` when one falls past a line's first third.
    static func labelLines(_ label: String) -> (indent: Double, lines: [String]) {
        let spaces = label.prefix { $0 == " " }.count
        let indent = 12 + Double(spaces) * labelCharacterWidth
        let width = max(8, Int((labelWidth - 8 - indent) / labelCharacterWidth))
        var rest = Substring(label.dropFirst(spaces))
        var lines: [String] = []
        while rest.count > width {
            let head = rest.prefix(width)
            let breakAt = head.lastIndex { $0 == " " || $0 == "/" || $0 == "·" }
            let cut =
                breakAt.map { head.distance(from: head.startIndex, to: $0) + 1 }.flatMap { $0 > width / 3 ? $0 : nil }
                ?? width
            lines.append(String(rest.prefix(cut)).trimmingTrailingSpaces)
            rest = rest.dropFirst(cut).drop { $0 == " " }
        }
        lines.append(String(rest))
        return (indent, lines)
    }

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

    /// The segments for the script that draws the axis: each one's x range on the unzoomed plot,
    /// its time range (`s0`, `s1`, seconds after the axis origin), the second its ticks count
    /// from (`o`) and its labels (`label`, and `short` for when that does not fit); `<` is
    /// written `\u003c` so no text can end the `<script>` that holds it.
    static func axisJSON(_ scale: TimelineScale) -> String {
        let several = scale.pieces.count > 1
        let pieces = scale.pieces.map { p -> JSONValue in
            .object([
                "x0": .number(format(p.x0, 3)), "x1": .number(format(p.x1, 3)),
                "s0": .number(format(scale.seconds(p.startMicros), 6)),
                "s1": .number(format(scale.seconds(p.endMicros), 6)),
                "o": .number(format(several ? scale.seconds(p.startMicros) : 0, 6)),
                "label": .string(p.label), "short": .string(p.shortLabel),
            ])
        }
        return JSONValue.object(["segments": .array(pieces)]).serialized.replacingAll("<", with: "\\u003c")
    }

    static func drawLane(_ lane: Timeline.Lane, y: Double, _ scale: TimelineScale, into out: inout String) {
        let h = height(of: lane)
        let (indent, lines) = labelLines(lane.label)
        out += "<g class=\"lane\"><text class=\"label\" x=\"\(px(indent))\" y=\"\(px(y + 13))\">"
        for (i, line) in lines.enumerated() {
            out += "<tspan x=\"\(px(indent))\" dy=\"\(i == 0 ? 0 : Int(labelLineHeight))\">\(escape(line))</tspan>"
        }
        out += "<title>\(escape(lane.label))</title></text>\n"
        out +=
            "<svg class=\"plot\(lane.plotsValues ? " values" : "")\" x=\"\(px(labelWidth))\" y=\"\(px(y))\" width=\"\(px(plotWidth))\" height=\"\(px(h))\">"
        out += "<rect class=\"lane\" y=\"1\" width=\"100%\" height=\"\(px(h - 2))\"/><g class=\"z\">\n"
        for mark in lane.marks where mark.shape == .band { drawSpan(mark, h: h, scale, into: &out) }
        for mark in lane.marks where mark.shape == .bar { drawSpan(mark, h: h, scale, into: &out) }
        let ticks = lane.marks.filter { $0.shape == .tick }.sorted { $0.startMicros < $1.startMicros }
        var start = 0
        while start < ticks.count {
            let column = scale.column(ticks[start].startMicros)
            var end = start + 1
            while end < ticks.count, scale.column(ticks[end].startMicros) == column { end += 1 }
            drawTicks(ticks[start..<end], h: h, base: baseHeight(of: lane), scale, values: lane.plotsValues, into: &out)
            start = end
        }
        for mark in lane.marks where mark.shape == .point {
            let x = bx(scale.x(mark.startMicros)), m = px(h / 2)
            out += "<line class=\"m point \(mark.style.rawValue)\" x1=\"\(x)\" y1=\"\(m)\" x2=\"\(x)\" y2=\"\(m)\">"
            out += "<title>\(escape(mark.text))</title></line>\n"
        }
        out += "</g></svg></g>\n"
    }

    static func drawSpan(_ mark: Timeline.Mark, h: Double, _ scale: TimelineScale, into out: inout String) {
        let x0 = scale.x(mark.startMicros), x1 = scale.x(mark.endMicros ?? mark.startMicros)
        let inset = mark.shape == .bar ? 3.0 : 1.0
        out += "<rect class=\"m \(mark.shape.rawValue) \(mark.style.rawValue)\" x=\"\(bx(x0))\" y=\"\(px(inset))\" "
        out += "width=\"\(bx(max(0.001, x1 - x0)))\" height=\"\(px(h - 2 * inset))\">"
        out += "<title>\(escape(mark.text))</title></rect>\n"
    }

    /// The height of a tick of RSSI `value` in a lane whose base height is `h`: -100 dBm and
    /// below 6 px, -30 dBm and above `h` - 2 px; 8 px when the RSSI is not known.
    static func tickHeight(_ value: Int?, _ h: Double) -> Double {
        guard let v = value else { return 8 }
        let f = (Double(min(-30, max(-100, v))) + 100) / 70
        return 6 + f * (h - 8)
    }

    /// Draws the ticks of one column as a vertical line: one tick, or an aggregate saying how
    /// many and their RSSI range, its text `N at T0–T1, RSSI …\nfirst: …\nlast: …` (the
    /// script reads that form to merge aggregates when zoomed out). Lanes that plot values draw
    /// the range of their RSSI instead, at least 3 pixels tall. `data-t0`/`data-t1` are the
    /// first and last time as the texts give them (`TimelineScale.time`), `data-lo`/`data-hi`
    /// the RSSI range, `data-c` how many were counted.
    static func drawTicks(
        _ ticks: ArraySlice<Timeline.Mark>, h: Double, base: Double, _ scale: TimelineScale, values: Bool,
        into out: inout String
    ) {
        let first = ticks[ticks.startIndex], last = ticks[ticks.endIndex - 1]
        let x = scale.x(first.startMicros)
        let high = ticks.compactMap(\.value).max()
        let low = ticks.compactMap { $0.lowValue ?? $0.value }.min()
        let count = ticks.reduce(0) { $0 + $1.count }
        let countsSightings = ticks.contains { $0.style == .counted || $0.style == .notCounted }
        let counted = ticks.reduce(0) { $0 + ($1.style == .counted ? $1.count : 0) }
        let style = counted > 0 ? Timeline.Style.counted : first.style
        let top = h - 1 - tickHeight(high, base)
        let bottom = values && low != nil ? h - 1 - tickHeight(low, base) + 3 : h - 1
        let t0 = scale.time(first.startMicros), t1 = scale.time(last.endMicros ?? last.startMicros)
        var text = first.text
        if count > 1 {
            text = "\(count) at \(t0)–\(t1)"
            if let low, let high { text += ", RSSI \(low)…\(high) dBm" }
            if countsSightings { text += ", \(counted) counted, \(count - counted) not" }
            text += "\nfirst: " + first.text + "\nlast: " + (last.lastText ?? last.text)
        }
        out += "<line class=\"m tick \(style.rawValue)\(count > 1 ? " agg" : "")\""
        if count > 1 { out += " data-n=\"\(count)\"" }
        out += " data-t0=\"\(t0)\" data-t1=\"\(t1)\""
        if let low, let high { out += " data-lo=\"\(low)\" data-hi=\"\(high)\"" }
        if countsSightings { out += " data-c=\"\(counted)\"" }
        out += " x1=\"\(bx(x))\" y1=\"\(px(top))\" x2=\"\(bx(x))\" y2=\"\(px(max(top + 1, bottom)))\">"
        out += "<title>\(escape(text))</title></line>\n"
    }

    /// `text` for HTML text and attribute values (`MarkupText.escape`).
    static func escape(_ text: String) -> String { MarkupText.escape(text) }

    /// One decimal (layout), and three for x on the unzoomed plot (kept apart when zoomed).
    static func px(_ v: Double) -> String { format(v, 1) }
    static func bx(_ v: Double) -> String { format(v, 3) }

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

extension StringProtocol {
    fileprivate var trimmingTrailingSpaces: String {
        var s = String(self)
        while s.last == " " { s.removeLast() }
        return s
    }

    /// Every `target` character replaced by `replacement`.
    fileprivate func replacingAll(_ target: Character, with replacement: String) -> String {
        var out = ""
        for c in self { if c == target { out += replacement } else { out.append(c) } }
        return out
    }
}
