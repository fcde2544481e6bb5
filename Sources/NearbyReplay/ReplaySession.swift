import NearbyAudio
import NearbyBytes
import NearbyCapture
import NearbyDecode
import NearbyJSON
import NearbyMessages

/// What `nearby-conformance replay` does: decode the captures and sound files into sightings,
/// merge them with the scenario's timed inputs, run the engine and return its events.
///
/// A sound file's first sample is at scenario time `startMicros`; each CRC-valid NUT frame
/// is an audio sighting of its token at the frame's end (when the whole frame has been
/// heard), rounded to the microsecond.
///
/// Merge order (ENGINE-O1A): by time; at the same microsecond, scenario
/// inputs (in file order) come before capture sightings (in the order the captures were
/// named, then record order), and those before audio sightings (in the order the sound
/// files were named, then frame order). Captures are sorted by timestamp, so a capture
/// whose clock steps backwards still feeds the engine in time order.
///
/// Memory does not grow with the captures: the sightings are sorted by a `SpillingSorter`,
/// which holds `sightingRunCapacity` of them in memory (7 MiB) and spills the rest to an
/// unnamed temporary file in `$TMPDIR` (56 bytes a sighting). The events are kept in the
/// result, unless they are handed on as they come (`run(…, onEvents:)`).
public struct ReplaySession {
    public struct Result: Sendable {
        public var events: [EngineEvent]
        /// The Unix time (µs) of scenario time 0.
        public var originUnixMicros: Int64
        /// Sightings taken from the captures.
        public var captureSightings: Int
        /// Sightings taken from the sound files (their CRC-valid frames).
        public var audioSightings: Int = 0
        /// Advertisements with beacon frames but no timestamp (hex text without times):
        /// they cannot be placed in time and are not replayed.
        public var untimedBeaconAdvertisements: Int
        public var accounting: DecodeAccounting
        /// Every input the engine received, in order, as (time, text) — kept only when the
        /// session was asked to (`keepTimeline`), for divergence reports.
        public var timeline: [(timeMicros: Int64, text: String)] = []
        /// Why each sighting counted or not and why each event fired, in output order
        /// (only when the session was asked to: `explain`).
        public var explanations: [ReplayExplanation] = []
        /// With `explain`: what each subscription made of the sightings, in id order.
        public var subscriptionSummaries: [ReplayExplanation.SubscriptionSummary] = []
        /// The beacon frames of the captures that are no sighting (TLM, URL, …), by type:
        /// how many, and why.
        public var notSightings: [String: (count: Int, reason: String)] = [:]
    }

    /// A sound file to replay and the scenario time of its first sample.
    public struct AudioFile: Sendable, Equatable {
        public var path: String
        public var startMicros: Int64

        public init(path: String, startMicros: Int64 = 0) {
            self.path = path
            self.startMicros = startMicros
        }
    }

    /// Keep a readable log of the inputs (costs memory; for reports on small replays).
    public var keepTimeline = false
    /// Explain every sighting and event (`replay --explain`; costs memory and time).
    public var explain = false
    /// Where decoded sound files are kept, so that sessions sharing it decode each file once.
    public var audioFrames: AudioFrameCache

    /// How many sightings are sorted in memory before they are spilled to a file: 2^17,
    /// 7 MiB. (Tests set it low to make small replays spill.)
    var sightingRunCapacity = 1 << 17
    /// Where sightings are spilled; nil for `$TMPDIR`, else `/tmp`.
    var spillFolder: String?

    public init(keepTimeline: Bool = false, audioFrames: AudioFrameCache = AudioFrameCache()) {
        self.keepTimeline = keepTimeline
        self.audioFrames = audioFrames
    }

    /// The sightings of the captures and sound files, in replay order, with the Unix time of
    /// scenario time 0 and what decoding counted.
    struct Collected {
        var sightings: SpillingSorter<CaptureSighting>.Merge
        var origin: Int64
        var bleCount: Int
        var audioCount: Int
        var untimed: Int
        var accounting: DecodeAccounting
        /// Beacon frames that are no sighting, by type, with why.
        var notSightings: [String: (count: Int, reason: String)]
    }

    /// Decodes the captures and sound files into sightings sorted as the replay feeds them.
    func collect(
        scenario: Scenario, captures: [String], audio: [AudioFile],
        onIssue: (DecodeIssue) -> Void
    ) throws(ReplayError) -> Collected {
        guard captures.count <= 1 << 16, audio.count <= 1 << 16 else {
            throw ReplayError(.tooManyFiles, "a replay takes at most 65,536 captures and 65,536 sound files")
        }
        var sightings = SpillingSorter<CaptureSighting>(runCapacity: sightingRunCapacity, spillFolder: spillFolder)
        // The decoder's callbacks cannot throw: the first spill failure is kept, and thrown
        // when the capture has been read.
        var spillFailure: SpillError?
        var earliest = Int64.max
        var accounting = DecodeAccounting()
        var untimed = 0
        var notSightings: [String: (count: Int, reason: String)] = [:]
        for (fileIndex, path) in captures.enumerated() {
            do throws(CaptureFileError) {
                let a = try CaptureDecoder.decode(
                    path: path,
                    onAdvertisement: { decoded in
                        guard let t = decoded.advertisement.timestampMicros else {
                            if !decoded.beacons.isEmpty { untimed += 1 }
                            return
                        }
                        earliest = min(earliest, t)
                        for beacon in decoded.beacons {
                            guard let reason = SightingExtractor.notASighting(beacon) else { continue }
                            notSightings[beacon.typeName, default: (0, reason)].count += 1
                        }
                        // Read out before the closure, which would otherwise capture a copy of `decoded`.
                        let rssi = decoded.advertisement.rssiDBm
                        let record = Int32(truncatingIfNeeded: decoded.advertisement.record)
                        let address = decoded.advertisement.address
                        SightingExtractor.identities(decoded) { identity in
                            // After a failure nothing more is kept (each append would retry the file).
                            guard spillFailure == nil else { return }
                            do throws(SpillError) {
                                try sightings.append(
                                    CaptureSighting(
                                        unixMicros: t, identity: identity, rssi: rssi, medium: .ble,
                                        file: UInt16(fileIndex), record: record, address: address))
                            } catch {
                                spillFailure = error
                            }
                        }
                    }, onIssue: onIssue)
                accounting.add(a)
            } catch {
                throw ReplayError(.captureUnreadable, "\(error)")
            }
            if let spillFailure { throw ReplayError(.spillFailed, "\(spillFailure)") }
        }
        let origin: Int64 =
            switch scenario.timeOrigin {
            case .unixMicros(let t): t
            case .firstAdvertisement: earliest == .max ? 0 : earliest
            }
        let bleCount = sightings.count
        for (fileIndex, file) in audio.enumerated() {
            let frames: [AudioTokenFrame]
            do throws(AudioFileError) {
                frames = try audioFrames.frames(file.path)
            } catch {
                throw ReplayError(.soundFileUnreadable, "\(error)")
            }
            do throws(SpillError) {
                for (index, frame) in frames.enumerated() {
                    let t = file.startMicros + Int64((frame.end * 1e6).rounded())
                    try sightings.append(
                        CaptureSighting(
                            unixMicros: origin + t, identity: SightingIdentity(.token, frame.token),
                            rssi: nil, medium: .audio, file: UInt16(fileIndex), record: Int32(index + 1)))
                }
            } catch {
                throw ReplayError(.spillFailed, "\(error)")
            }
        }
        let audioCount = sightings.count - bleCount
        let sorted: SpillingSorter<CaptureSighting>.Merge
        do throws(SpillError) {
            sorted = try sightings.finish()
        } catch {
            throw ReplayError(.spillFailed, "\(error)")
        }
        return Collected(
            sightings: sorted, origin: origin, bleCount: bleCount, audioCount: audioCount, untimed: untimed,
            accounting: accounting, notSightings: notSightings)
    }

    /// The sightings the captures and sound files give, in scenario time and replay order,
    /// with the Unix time of scenario time 0: what an implementation under test receives as
    /// scenario events (docs/spec/interop.md, level `events`).
    public func sightings(
        scenario: Scenario, captures: [String], audio: [AudioFile]
    ) throws(ReplayError) -> (originUnixMicros: Int64, sightings: [Sighting]) {
        var c = try collect(scenario: scenario, captures: captures, audio: audio, onIssue: { _ in })
        var sightings: [Sighting] = []
        do throws(SpillError) {
            while let s = try c.sightings.next() {
                sightings.append(
                    Sighting(
                        timeMicros: s.unixMicros - c.origin, medium: s.medium, identity: s.identity,
                        rssiDBm: s.rssi))
            }
        } catch {
            throw ReplayError(.spillFailed, "\(error)")
        }
        return (c.origin, sightings)
    }

    /// Runs the scenario over the captures: the replay, and the decoding faults in the
    /// captures, in order. A capture that cannot be read at all throws.
    public func run(
        scenario: Scenario, captures: [String], audio: [AudioFile] = []
    ) throws(ReplayError) -> (result: Result, issues: [DecodeIssue]) {
        var issues: [DecodeIssue] = []
        let result = try run(scenario: scenario, captures: captures, audio: audio) { issues.append($0) }
        return (result, issues)
    }

    /// How many events gather before they are handed to `onEvents`.
    static let eventBatch = 4_096

    /// Runs the scenario over the captures. Decoding faults go to `onIssue`; a capture that
    /// cannot be read at all throws. With `onEvents` (and without `explain`, whose
    /// explanations cite events by index), the events are handed on in order, in batches, as
    /// the engine produces them, with the Unix time of scenario time 0, and the result keeps
    /// none: the replay's memory then does not grow with its events.
    package func run(
        scenario: Scenario, captures: [String], audio: [AudioFile] = [],
        onIssue: (DecodeIssue) -> Void, onEvents: ((_ originUnixMicros: Int64, [EngineEvent]) -> Void)? = nil
    ) throws(ReplayError) -> Result {
        let c = try collect(scenario: scenario, captures: captures, audio: audio, onIssue: onIssue)
        var sightings = c.sightings
        let origin = c.origin, bleCount = c.bleCount, audioCount = c.audioCount
        let untimed = c.untimed, accounting = c.accounting

        var timeline: [(timeMicros: Int64, text: String)] = []
        var engine = SubscriptionEngine(
            registry: scenario.registry.placed(originUnixMicros: origin), initialState: scenario.initialState,
            configuration: scenario.configuration)
        var events: [EngineEvent] = []
        var explainer = explain ? ReplayExplainer(scenario: scenario) : nil
        let handOn = explain ? nil : onEvents
        func handOnEvents(atLeast count: Int) {
            guard let handOn, events.count >= count, !events.isEmpty else { return }
            handOn(origin, events)
            events.removeAll(keepingCapacity: true)
        }
        var feed = ScenarioInputFeed(scenario)
        func feedInputs(through time: Int64) throws(EngineInputError) {
            try feed.due(through: time) { (i, time, input) throws(EngineInputError) in
                if keepTimeline { timeline.append((time, Self.describe(input))) }
                switch input {
                case .action(let a) where explainer != nil:
                    let record = ReplayExplanation.InputRecord(index: i, text: Self.describe(input))
                    try explainer!.perform(&engine, a, at: time, input: record, &events)
                case .sighting(let s) where explainer != nil:
                    try explainer!.sight(&engine, .init(sighting: s, origin: .scenario(input: i)), &events)
                default: try engine.apply(input, at: time, into: &events)
                }
                handOnEvents(atLeast: Self.eventBatch)
            }
        }
        do {
            while let s = try sightings.next() {
                let time = s.unixMicros - origin
                // Scenario inputs at the same time come first (ENGINE-O1A).
                try feedInputs(through: time)
                if keepTimeline {
                    if s.medium == .audio {
                        let name = audio[Int(s.file)].path.split(separator: "/").last.map(String.init) ?? ""
                        timeline.append(
                            (time, "sighting \(Self.describe(s.identity, .audio)) (\(name) frame \(s.record))"))
                    } else {
                        let name = captures[Int(s.file)].split(separator: "/").last.map(String.init) ?? ""
                        timeline.append(
                            (
                                time,
                                "sighting \(Self.describe(s.identity, .ble)) rssi \(s.rssi.map(String.init) ?? "?") "
                                    + "(\(name) record \(s.record))"
                            ))
                    }
                }
                let sighting = Sighting(timeMicros: time, medium: s.medium, identity: s.identity, rssiDBm: s.rssi)
                if explainer != nil {
                    let origin: ReplayExplanation.Origin =
                        s.medium == .audio
                        ? .audio(audio[Int(s.file)].path, frame: Int(s.record))
                        : .capture(captures[Int(s.file)], record: Int(s.record))
                    try explainer!.sight(
                        &engine, .init(sighting: sighting, origin: origin, address: s.address), &events)
                } else {
                    try engine.sight(sighting, into: &events)
                    handOnEvents(atLeast: Self.eventBatch)
                }
            }
            try feedInputs(through: .max)
            let fired = events.count
            try engine.end(at: scenario.endMicros, into: &events)
            explainer?.explainTimers(events, from: fired)
            handOnEvents(atLeast: 1)
        } catch let error as EngineInputError {
            throw ReplayError(.inputRefused, error.reason)
        } catch {
            throw ReplayError(.spillFailed, "\(error)")
        }
        return Result(
            events: events, originUnixMicros: origin, captureSightings: bleCount, audioSightings: audioCount,
            untimedBeaconAdvertisements: untimed, accounting: accounting, timeline: timeline,
            explanations: explainer?.lines ?? [], subscriptionSummaries: explainer?.summaries ?? [],
            notSightings: c.notSightings)
    }

}
