/// Maps axis time to x on the unzoomed plot, 0…`TimelineHTML.plotWidth` pixels. Each of the
/// timeline's segments (one from start to end when it has none) gets a share of the width in
/// proportion to its duration, counted as at least a quarter of the segments' mean duration,
/// so each is at least a fifth of an equal share wide and a short capture beside a long one
/// stays visible; consecutive segments are `TimelineHTML.gapWidth` apart
/// (less when there are so many that the gaps would take more than a quarter of the width).
/// The browser's zoom and pan scale and shift these x, never the time they stand for.
struct TimelineScale {
    /// A segment's time, µs, and its x range on the unzoomed plot.
    struct Piece {
        var startMicros: Int64
        var endMicros: Int64
        var x0: Double
        var x1: Double
        var label: String
        var shortLabel: String
    }

    let pieces: [Piece]
    let axisOrigin: Int64
    /// The width of a tick column at the timeline's `detail`, pixels of the unzoomed plot.
    let columnWidth: Double

    init(_ t: Timeline) {
        let segments =
            t.segments.isEmpty
            ? [Timeline.Segment(startMicros: t.startMicros, endMicros: max(t.endMicros, t.startMicros + 1), label: "")]
            : t.segments
        let durations = segments.map { Double(max(0, $0.endMicros - $0.startMicros)) }
        let total = durations.reduce(0, +)
        let least = total / Double(4 * segments.count)
        let weights = durations.map { total > 0 ? max($0, least) : 1 }
        let gap = min(TimelineHTML.gapWidth, TimelineHTML.plotWidth / 4 / Double(max(1, segments.count - 1)))
        let width = TimelineHTML.plotWidth - Double(segments.count - 1) * gap
        var x = 0.0
        var pieces: [Piece] = []
        for (segment, weight) in zip(segments, weights) {
            let w = width * weight / weights.reduce(0, +)
            pieces.append(
                Piece(
                    startMicros: segment.startMicros, endMicros: segment.endMicros, x0: x, x1: x + w,
                    label: segment.label,
                    shortLabel: segment.shortLabel))
            x += w + gap
        }
        self.pieces = pieces
        axisOrigin = t.axisOriginMicros
        columnWidth = TimelineHTML.tickColumn / Double(max(1, t.detail))
    }

    /// The x of `micros`: in the piece that holds it, or at the edge of the nearest one.
    func x(_ micros: Int64) -> Double {
        var low = 0, high = pieces.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if pieces[mid].startMicros <= micros { low = mid } else { high = mid - 1 }
        }
        let p = pieces[low]
        guard p.endMicros > p.startMicros else { return p.x0 }
        let f = (Double(micros) - Double(p.startMicros)) / Double(p.endMicros - p.startMicros)
        return p.x0 + min(1, max(0, f)) * (p.x1 - p.x0)
    }

    /// The tick column of `micros`: ticks in the same one are drawn as one element.
    func column(_ micros: Int64) -> Int { Int(x(micros) / columnWidth) }

    /// Seconds after the axis origin, as the script's axis counts them.
    func seconds(_ micros: Int64) -> Double { Double(micros - axisOrigin) / 1e6 }

    /// A time as aggregate ticks' texts give it: seconds after the axis origin with six
    /// decimals and ` s`, or, when the axis is cut into segments, the segment's label and the
    /// seconds after its start.
    func time(_ micros: Int64) -> String {
        guard pieces.count > 1 else { return TimelineHTML.format(seconds(micros), 6) + " s" }
        var piece = pieces[0]
        for p in pieces where p.startMicros <= micros { piece = p }
        return piece.label + " + " + TimelineHTML.format(Double(micros - piece.startMicros) / 1e6, 6) + " s"
    }
}
