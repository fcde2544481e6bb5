/// What a timeline report shows (`replay --html`, `decode --html`): lanes of marks on one time
/// axis, in groups, drawn by `TimelineHTML`. Times are microseconds on the report's axis
/// (scenario time for a replay, Unix time for a decode); `axisOriginMicros` is drawn as 0 s.
/// The axis may be cut into segments with the time between them collapsed (captures years
/// apart); a reader zooms and pans it in the browser.
public struct Timeline: Sendable {
    /// The report's heading and the lines under it (files, counts, what was left out).
    public var title: String
    public var notes: [String] = []
    /// The time drawn as 0 s, µs on the axis.
    public var axisOriginMicros: Int64 = 0
    /// What the axis's seconds count from, said under it (“scenario time”, a UTC time).
    public var axisLabel: String
    /// The span drawn, µs; marks outside it are drawn at its edges.
    public var startMicros: Int64
    public var endMicros: Int64
    public var groups: [Group] = []
    /// Tables drawn under the plot (`decode --html`: the survey of beacons and advertisers).
    public var tables: [Table] = []
    /// The stretches of the axis drawn, in time order and apart; the time between two is drawn
    /// as a narrow gap. Empty: one stretch from `startMicros` to `endMicros`.
    public var segments: [Segment] = []
    /// How finely ticks are kept apart, 1…64: ticks are aggregated per 1/`detail` of a
    /// `TimelineHTML.tickColumn` of the unzoomed plot, so they stay apart when the reader zooms
    /// in up to `detail` times (`detail(forTicks:)` chooses it for a number of ticks).
    public var detail = 1

    public init(title: String, axisLabel: String, startMicros: Int64, endMicros: Int64) {
        self.title = title
        self.axisLabel = axisLabel
        self.startMicros = startMicros
        self.endMicros = endMicros
    }

    /// A stretch of the axis with something in it, µs, and what is said above it when there
    /// are several (its UTC start, say; `shortLabel` when that does not fit, with `label` on
    /// hovering); its ticks count seconds from its start.
    public struct Segment: Sendable, Equatable {
        public var startMicros: Int64
        public var endMicros: Int64
        public var label: String
        public var shortLabel: String

        public init(startMicros: Int64, endMicros: Int64, label: String, shortLabel: String? = nil) {
            self.startMicros = startMicros
            self.endMicros = endMicros
            self.label = label
            self.shortLabel = shortLabel ?? label
        }
    }

    /// The finest `detail` (a power of two, 64 down to 1) at which lanes holding `ticks` ticks
    /// each draw at most `budget` tick elements in all: each lane draws at most one element per
    /// detailed column (`TimelineHTML.columns` × `detail`) and one per tick.
    public static func detail(forTicks ticks: [Int], budget: Int = 50_000) -> Int {
        var detail = 64
        while detail > 1, ticks.reduce(0, { $0 + min($1, TimelineHTML.columns * detail) }) > budget { detail /= 2 }
        return detail
    }

    /// A table under the plot: a heading, a note under it, the column heads and the rows
    /// (cells as text; a row shorter than the heads leaves the rest empty).
    public struct Table: Sendable {
        public var title: String
        public var note: String
        public var columns: [String]
        public var rows: [[String]]

        public init(title: String, note: String = "", columns: [String], rows: [[String]]) {
            self.title = title
            self.note = note
            self.columns = columns
            self.rows = rows
        }
    }

    /// A heading and its lanes (“Messages found”, “Sightings by source”, “Device state”).
    public struct Group: Sendable {
        public var title: String
        public var lanes: [Lane]

        public init(title: String, lanes: [Lane] = []) {
            self.title = title
            self.lanes = lanes
        }
    }

    /// One row: a label and its marks.
    public struct Lane: Sendable {
        public var label: String
        public var marks: [Mark]
        /// Draw the marks' `value` (RSSI, dBm) as a line over time instead of ticks.
        public var plotsValues: Bool

        public init(label: String, marks: [Mark] = [], plotsValues: Bool = false) {
            self.label = label
            self.marks = marks
            self.plotsValues = plotsValues
        }
    }

    /// One thing on a lane, with the text a person reads on hovering it.
    public struct Mark: Sendable {
        public var shape: Shape
        /// When it starts, µs on the axis.
        public var startMicros: Int64
        /// When it ends (bars and bands); nil for ticks and marks.
        public var endMicros: Int64?
        /// What it stands for; also its CSS class (`found`, `counted`, `state`, `error`, …).
        public var style: Style
        /// A tick's RSSI (dBm, -127…20), drawn as the tick's height; nil when not known.
        public var value: Int?
        /// The explanation shown on hovering.
        public var text: String
        /// How many ticks this one stands for (a producer may aggregate them itself; then
        /// `endMicros` is the last one's time, `lowValue`…`value` their RSSI range, `text`
        /// describes the first and `lastText` the last).
        public var count = 1
        public var lowValue: Int?
        public var lastText: String?

        public init(
            _ shape: Shape, _ style: Style, at startMicros: Int64, until endMicros: Int64? = nil, value: Int? = nil,
            text: String
        ) {
            self.shape = shape
            self.style = style
            self.startMicros = startMicros
            self.endMicros = endMicros
            self.value = value
            self.text = text
        }
    }

    public enum Shape: String, Sendable {
        /// From `startMicros` to `endMicros`, the full lane height: a message found until lost.
        case bar
        /// From `startMicros` to `endMicros`, behind the lane: a state that holds for a while.
        case band
        /// A thin line at `startMicros`, as tall as its `value` is strong: a sighting. Ticks
        /// closer than two pixels at the zoom shown are read as one aggregate that counts them.
        case tick
        /// A dot at `startMicros`: an expiry, an error callback.
        case point
    }

    /// An open set of styles, each a CSS class of the report.
    public struct Style: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// A message found (F1) until lost; `open` when it was still found at the end.
        public static let found = Style(rawValue: "found")
        public static let foundOpen = Style(rawValue: "found open")
        /// A subscription or publication active.
        public static let active = Style(rawValue: "active")
        /// A sighting some subscription counted, or none did.
        public static let counted = Style(rawValue: "counted")
        public static let notCounted = Style(rawValue: "not-counted")
        /// A beacon or advertisement seen (decode).
        public static let seen = Style(rawValue: "seen")
        /// A device state that stops something (Bluetooth off, background, a permission not granted).
        public static let state = Style(rawValue: "state")
        /// An expiry callback.
        public static let expiry = Style(rawValue: "expiry")
        /// An error or permission callback, or a decoding fault.
        public static let error = Style(rawValue: "error")
        /// Any other callback.
        public static let event = Style(rawValue: "event")
    }
}
