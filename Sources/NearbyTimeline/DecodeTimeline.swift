import NearbyBytes
import NearbyCapture
import NearbyDecode
import NearbyFormats
import NearbyJSON
import NearbyReplay

/// The timeline of decoded captures (`decode --html`), on their own clock (Unix time, drawn
/// from the earliest advertisement as 0 s): one lane per beacon identity with its RSSI over
/// time (Eddystone-UID and -EID, iBeacon, AltBeacon and BLE tokens by identity; Eddystone-URL
/// by URL; TLM, eTLM and other frames by the advertiser's address), a lane of every
/// advertisement with AD data, and a lane of decoding faults (each at the time of the
/// advertisement before it in its file). Advertisements without a timestamp (hex text without
/// times) are counted, not drawn. At most `maximumLanes` identities are drawn, those with the
/// most advertisements; the report says how many were left out.
///
/// Under the plot, the survey of beacons and advertisers (`CaptureSurvey`), as `survey` lists
/// them, also advertisements without a timestamp.
///
/// Memory: 32 bytes an advertisement and beacon, and the survey's 9 bytes a hearing of a beacon
/// or advertiser; columns are aggregated when the report is made.
public struct DecodeTimeline {
    public static let maximumLanes = 300

    struct Sample {
        var micros: Int64
        var address: UInt64
        var record: Int32
        var file: Int32
        var rssi: Int8
        var hasRSSI: Bool
    }

    struct Lane {
        var label: String
        var samples: [Sample] = []
    }

    /// What tells one beacon's lane from another's, without building its label: the beacon
    /// type (`BeaconFrame.typeIndex`), its identifying bytes (a URL's encoding, of any length, in
    /// `encoded`), and a number (iBeacon major and minor, the URL scheme, or the advertiser's
    /// address for frames that identify no beacon).
    struct LaneKey: Hashable {
        var type: Int
        var id = ShortBytes()
        var encoded: [UInt8] = []
        var number: UInt64 = 0
    }

    private var files: [String] = []
    private var fileIndex: [String: Int] = [:]
    /// The time of each file's latest advertisement (µs; `Int64.min` before the first).
    private var lastTimes: [Int64] = []
    private var lanes: [Lane] = []
    private var laneIndex: [LaneKey: Int] = [:]
    private var all = Lane(label: "all advertisements")
    private var faults: [(Sample, String)] = []
    private(set) public var untimed = 0
    /// Every beacon identity and advertiser, as `survey` lists them, for the table under the plot.
    private var survey = CaptureSurvey()

    public init() {}

    private mutating func file(_ path: String) -> Int {
        if let last = files.last, last == path { return files.count - 1 }
        if let i = fileIndex[path] { return i }
        files.append(path)
        lastTimes.append(.min)
        fileIndex[path] = files.count - 1
        return files.count - 1
    }

    /// Adds an advertisement of capture `path`.
    public mutating func add(_ decoded: DecodedAdvertisement, file path: String) {
        let a = decoded.advertisement
        guard a.hasADData else { return }
        survey.add(decoded)
        guard let t = a.timestampMicros else {
            untimed += 1
            return
        }
        let f = file(path)
        lastTimes[f] = t
        let sample = Sample(
            micros: t, address: a.address.rawValue, record: Int32(truncatingIfNeeded: a.record), file: Int32(f),
            rssi: a.rssiDBm ?? 0, hasRSSI: a.rssiDBm != nil)
        all.samples.append(sample)
        for beacon in decoded.beacons {
            let key = Self.key(beacon, address: a.address)
            if let i = laneIndex[key] {
                lanes[i].samples.append(sample)
            } else {
                laneIndex[key] = lanes.count
                lanes.append(Lane(label: Self.identity(beacon, address: a.address), samples: [sample]))
            }
        }
    }

    /// Adds a decoding fault, placed at the time of its file's last advertisement (the start
    /// of the report when none came before it).
    public mutating func add(_ issue: DecodeIssue) {
        let f = file(issue.file)
        let sample = Sample(
            micros: lastTimes[f], address: 0, record: Int32(truncatingIfNeeded: issue.record), file: Int32(f),
            rssi: 0, hasRSSI: false)
        faults.append((sample, issue.description))
    }

    /// The lane a beacon goes to: one per identity, as `identity` labels them.
    static func key(_ beacon: BeaconFrame, address: BluetoothAddress) -> LaneKey {
        let type = beacon.typeIndex
        switch beacon {
        case .eddystone(.uid(let f)): return LaneKey(type: type, id: f.namespace.appending(f.instance))
        case .eddystone(.eid(let f)): return LaneKey(type: type, id: f.eid)
        case .eddystone(.url(let f)): return LaneKey(type: type, encoded: f.encoded, number: UInt64(f.scheme))
        case .iBeacon(let b):
            return LaneKey(type: type, id: b.uuid, number: UInt64(b.major) << 16 | UInt64(b.minor))
        case .altBeacon(let b): return LaneKey(type: type, id: b.beaconID)
        case .token(.v1(let t)): return LaneKey(type: type, id: t.token)
        default: return LaneKey(type: type, number: address.rawValue)
        }
    }

    /// A beacon's lane label: its type and what identifies it.
    static func identity(_ beacon: BeaconFrame, address: BluetoothAddress) -> String {
        switch beacon {
        case .eddystone(.uid(let f)): "eddystone-uid \(Hex.encode(f.namespace)) \(Hex.encode(f.instance))"
        case .eddystone(.eid(let f)): "eddystone-eid \(Hex.encode(f.eid))"
        case .eddystone(.url(let f)): "eddystone-url \(f.url ?? Hex.encode(f.encoded))"
        case .iBeacon(let b): "ibeacon \(uuid(b.uuid)) \(b.major) \(b.minor)"
        case .altBeacon(let b): "altbeacon \(Hex.encode(b.beaconID))"
        case .token(.v1(let t)): "token-v1 \(Hex.encode(t.token))"
        default: "\(beacon.typeName) from \(address)"
        }
    }

    /// 16 bytes as `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`, as `decode` prints iBeacon UUIDs.
    static func uuid(_ bytes: ShortBytes) -> String {
        let hex = Array(Hex.encode(bytes))
        var out = ""
        for (i, c) in hex.enumerated() {
            if i == 8 || i == 12 || i == 16 || i == 20 { out.append("-") }
            out.append(c)
        }
        return out
    }

    /// The report: `title`, the files' names and counts as notes; long gaps without
    /// advertisements are collapsed (`segments`).
    public func timeline(title: String, notes: [String] = []) -> Timeline {
        let times = all.samples.map(\.micros).sorted()
        let start = times.first ?? 0
        var end = times.last ?? 0
        if end <= start { end = start + 1_000_000 }
        let segments = Self.segments(times)
        var t = Timeline(
            title: title,
            axisLabel: segments.isEmpty
                ? "seconds after " + CivilTime.iso8601(micros: start) : "seconds after each stretch's start (above it)",
            startMicros: start, endMicros: end)
        t.axisOriginMicros = start
        t.segments = segments
        t.notes = notes
        t.notes.append(
            "\(all.samples.count) advertisements with AD data and a timestamp, \(lanes.count) beacon identities, "
                + "\(faults.count) decoding faults")
        if !segments.isEmpty {
            t.notes.append(
                "\(segments.count) stretches with advertisements; the \(segments.count - 1) gaps between them "
                    + "(each longer than a minute and a tenth of the time with advertisements) are collapsed and shaded"
            )
        }
        if untimed > 0 { t.notes.append("\(untimed) advertisements have no timestamp and are not drawn") }
        var drawn = Array(lanes.indices)
        if drawn.count > Self.maximumLanes {
            drawn = Array(
                drawn.sorted { (lanes[$0].samples.count, $1) > (lanes[$1].samples.count, $0) }
                    .prefix(Self.maximumLanes)
            ).sorted()
            t.notes.append(
                "\(lanes.count - drawn.count) beacon identities with fewer advertisements are not drawn "
                    + "(at most \(Self.maximumLanes))")
        }
        t.detail = Timeline.detail(forTicks: drawn.map { lanes[$0].samples.count } + [all.samples.count, faults.count])
        t.groups.append(
            Timeline.Group(
                title: "Beacons by identity (RSSI over time)",
                lanes: drawn.map { lane(lanes[$0], t, plotsValues: true) }))
        var summary = [lane(all, t, plotsValues: false)]
        if !faults.isEmpty {
            var l = Timeline.Lane(label: "decoding faults")
            l.marks = faults.map { sample, text in
                Timeline.Mark(.tick, .error, at: sample.micros == .min ? start : sample.micros, text: text)
            }
            l.marks.sort { $0.startMicros < $1.startMicros }
            summary.append(l)
        }
        t.groups.append(Timeline.Group(title: "All advertisements", lanes: summary))
        let entries = survey.entries
        let beacons = entries.count { $0.kind == .beacon }
        t.tables.append(
            Timeline.Table(
                title: "Beacons and advertisers",
                note: "As the survey command lists them (docs/decode-output.md, \"Survey\"): \(beacons) beacon "
                    + "identities, then \(entries.count - beacons) advertisers, each by first heard; the interval is "
                    + "the 10th percentile of the gaps between hearings.",
                columns: SurveyEntry.cellColumns, rows: entries.map(\.cells)))
        return t
    }

    /// The stretches of `sorted` (µs), each labelled with its UTC start (its date when that
    /// does not fit) and at least a second
    /// long; empty when there is one. A gap between advertisements is collapsed when it is
    /// longer than a minute and than a tenth of the time the stretches cover (the span without
    /// the gaps longer than a minute), so captures days or years apart each get their width
    /// while pauses within a capture stay on its axis. At most `maximumSegments`: the longest
    /// gaps are collapsed.
    static func segments(_ sorted: [Int64]) -> [Timeline.Segment] {
        guard let first = sorted.first, let last = sorted.last else { return [] }
        let minute: Int64 = 60_000_000
        var gaps = zip(sorted, sorted.dropFirst()).enumerated().filter { $0.element.1 - $0.element.0 > minute }
        let covered = last - first - gaps.reduce(0) { $0 + ($1.element.1 - $1.element.0) }
        gaps.removeAll { $0.element.1 - $0.element.0 <= covered / 10 }
        if gaps.count >= maximumSegments {
            gaps = Array(
                gaps.sorted { $0.element.1 - $0.element.0 > $1.element.1 - $1.element.0 }.prefix(maximumSegments - 1))
            gaps.sort { $0.offset < $1.offset }
        }
        guard !gaps.isEmpty else { return [] }
        var out: [Timeline.Segment] = []
        var start = first
        func close(_ end: Int64) {
            out.append(
                Timeline.Segment(
                    startMicros: start, endMicros: max(end, start + 1_000_000), label: CivilTime.iso8601(micros: start),
                    shortLabel: String(CivilTime.iso8601(micros: start).prefix { $0 != "T" })))
        }
        for (_, (a, b)) in gaps {
            close(a)
            start = b
        }
        close(last)
        return out
    }

    /// The most segments a decode timeline's axis is cut into.
    public static let maximumSegments = 100

    /// A lane's marks: one a tick column at the timeline's detail (`TimelineScale.column`),
    /// saying how many advertisements it holds, their RSSI range and the first and last.
    func lane(_ lane: Lane, _ t: Timeline, plotsValues: Bool) -> Timeline.Lane {
        let samples = lane.samples.sorted { ($0.micros, $0.file, $0.record) < ($1.micros, $1.file, $1.record) }
        var out = Timeline.Lane(label: "\(lane.label) (\(samples.count))", plotsValues: plotsValues)
        let scale = TimelineScale(t)
        var i = 0
        while i < samples.count {
            let column = scale.column(samples[i].micros)
            var j = i + 1
            while j < samples.count, scale.column(samples[j].micros) == column { j += 1 }
            let run = samples[i..<j]
            let rssi = run.filter(\.hasRSSI).map { Int($0.rssi) }
            var mark = Timeline.Mark(
                .tick, .seen, at: run.first!.micros, until: run.last!.micros, value: rssi.max(),
                text: describe(run.first!, t))
            mark.count = run.count
            mark.lowValue = rssi.min()
            if run.count > 1 { mark.lastText = describe(run.last!, t) }
            out.marks.append(mark)
            i = j
        }
        return out
    }

    /// A sample's time (seconds after the axis origin; its UTC time when the axis has
    /// segments), file, record, address and RSSI.
    func describe(_ s: Sample, _ t: Timeline) -> String {
        let name = files[Int(s.file)].split(separator: "/").last.map(String.init) ?? ""
        let seconds =
            t.segments.isEmpty
            ? JSONValue.seconds(micros: s.micros - t.axisOriginMicros).serialized + " s"
            : CivilTime.iso8601(micros: s.micros)
        return "\(seconds) \(name) record \(s.record) from \(BluetoothAddress(rawValue: s.address))"
            + (s.hasRSSI ? " RSSI \(s.rssi) dBm" : "")
    }
}
