import HeapModule
import NearbyCapture
import NearbyDecode
import NearbyMessages

extension ReplaySession {
    /// What a replay of a capture as it was read (`run(scenario:capture:reorderWindowMicros:…)`)
    /// counted.
    package struct AsReadResult: Sendable {
        /// The Unix time (µs) of scenario time 0.
        package var originUnixMicros: Int64
        package var captureSightings: Int
        /// Advertisements with beacon frames but no timestamp: not replayed.
        package var untimedBeaconAdvertisements: Int
        /// Advertisements that came more than the reorder window after a later one
        /// (ENGINE-O1B): not replayed.
        package var lateAdvertisements: Int
        /// The first late advertisement's record and time (Unix µs).
        package var firstLate: (record: Int, unixMicros: Int64)?
        package var accounting: DecodeAccounting
    }

    /// A sighting waiting in the reorder window: by time, then in the order it was read.
    private struct Waiting: Comparable {
        var unixMicros: Int64
        var order: Int
        var identity: SightingIdentity
        var rssi: Int8?

        static func < (a: Waiting, b: Waiting) -> Bool { (a.unixMicros, a.order) < (b.unixMicros, b.order) }
        static func == (a: Waiting, b: Waiting) -> Bool { (a.unixMicros, a.order) == (b.unixMicros, b.order) }
    }

    /// Runs the scenario over one capture as it is read (`replay --reorder-window`,
    /// ENGINE-O1B): a sighting is fed to the engine once the capture has reached a time more
    /// than `reorderWindowMicros` past it, and its events are handed to `onEvents` as soon as
    /// the engine makes them, so that they come while a capture on a pipe is still arriving.
    ///
    /// For a capture no advertisement of which comes more than the window after a later one,
    /// the events are those `run(scenario:captures:…)` gives. One that does is *late*: it is
    /// not replayed, and is counted (`lateAdvertisements`). With the scenario's time origin
    /// at the first advertisement, scenario time 0 is the earliest advertisement read before
    /// the first sighting is fed; an advertisement earlier than it is late too.
    package func run(
        scenario: Scenario, capture: String, reorderWindowMicros window: Int64,
        onIssue: (DecodeIssue) -> Void, onEvents: (_ originUnixMicros: Int64, [EngineEvent]) -> Void
    ) throws(ReplayError) -> AsReadResult {
        var waiting = Heap<Waiting>()
        var order = 0
        var earliest = Int64.max, latest = Int64.min
        var origin: Int64?
        // The time of the last sighting fed: a sighting before it is late.
        var fed = Int64.min
        var engine: SubscriptionEngine?
        var events: [EngineEvent] = []
        var feed = ScenarioInputFeed(scenario)
        var sightings = 0, untimed = 0, late = 0
        var firstLate: (record: Int, unixMicros: Int64)?
        var failure: EngineInputError?

        func start() -> Int64 {
            if let origin { return origin }
            let o: Int64 =
                switch scenario.timeOrigin {
                case .unixMicros(let t): t
                case .firstAdvertisement: earliest == .max ? 0 : earliest
                }
            origin = o
            engine = SubscriptionEngine(
                registry: scenario.registry.placed(originUnixMicros: o), initialState: scenario.initialState,
                configuration: scenario.configuration)
            return o
        }
        func feedInputs(through time: Int64) throws(EngineInputError) {
            try feed.due(through: time) { (_, t, input) throws(EngineInputError) in
                try engine!.apply(input, at: t, into: &events)
            }
        }
        /// Feeds the sightings waiting up to Unix time `limit`, and hands on the events.
        func release(through limit: Int64) {
            while failure == nil, let first = waiting.min, first.unixMicros <= limit {
                let o = start()
                waiting.removeMin()
                fed = first.unixMicros
                let time = first.unixMicros - o
                do throws(EngineInputError) {
                    // Scenario inputs at the same time come first (ENGINE-O1A).
                    try feedInputs(through: time)
                    try engine!.sight(
                        Sighting(timeMicros: time, medium: .ble, identity: first.identity, rssiDBm: first.rssi),
                        into: &events)
                } catch {
                    failure = error
                }
            }
            if !events.isEmpty, let origin {
                onEvents(origin, events)
                events.removeAll(keepingCapacity: true)
            }
        }

        let accounting: DecodeAccounting
        do throws(CaptureFileError) {
            accounting = try CaptureDecoder.decode(
                path: capture,
                onAdvertisement: { decoded in
                    guard failure == nil else { return }
                    guard let t = decoded.advertisement.timestampMicros else {
                        if !decoded.beacons.isEmpty { untimed += 1 }
                        return
                    }
                    let movesOrigin = origin != nil && scenario.timeOrigin == .firstAdvertisement && t < origin!
                    if movesOrigin || t < fed {
                        // Late when it would move the origin, or when it holds a sighting.
                        var sighted = movesOrigin
                        if !sighted { SightingExtractor.identities(decoded) { _ in sighted = true } }
                        if sighted {
                            late += 1
                            if firstLate == nil { firstLate = (decoded.advertisement.record, t) }
                        }
                        return
                    }
                    earliest = min(earliest, t)
                    let rssi = decoded.advertisement.rssiDBm
                    SightingExtractor.identities(decoded) { identity in
                        sightings += 1
                        waiting.insert(Waiting(unixMicros: t, order: order, identity: identity, rssi: rssi))
                        order += 1
                    }
                    latest = max(latest, t)
                    let (limit, overflow) = latest.subtractingReportingOverflow(window)
                    if !overflow { release(through: limit) }
                }, onIssue: onIssue)
        } catch {
            throw ReplayError(.captureUnreadable, "\(error)")
        }
        release(through: .max)
        let o = start()
        do throws(EngineInputError) {
            if let failure { throw failure }
            try feedInputs(through: .max)
            try engine!.end(at: scenario.endMicros, into: &events)
        } catch {
            throw ReplayError(.inputRefused, error.reason)
        }
        if !events.isEmpty { onEvents(o, events) }
        return AsReadResult(
            originUnixMicros: o, captureSightings: sightings, untimedBeaconAdvertisements: untimed,
            lateAdvertisements: late, firstLate: firstLate, accounting: accounting)
    }
}
