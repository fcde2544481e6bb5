import NearbyCapture
import NearbyDecode
import NearbyLive
import NearbyMessages

extension ReplaySession {
    /// What a live replay ran over.
    public struct LiveResult: Sendable {
        /// The Unix time (µs) of scenario time 0: when scanning started.
        public var originUnixMicros: Int64
        /// Scenario time (µs) the session stopped at; the engine ran to it.
        public var endMicros: Int64
        public var captureSightings: Int
        /// Scenario inputs later than the stop, never applied.
        public var inputsNotReached: Int
        /// Advertisements with beacon frames stamped before scanning started (not replayed).
        public var advertisementsBeforeStart: Int
        public var accounting: DecodeAccounting
    }

    /// Runs `scenario` over `capture` as its records arrive (`replay --live`), handing each
    /// engine event to `onEvent` as soon as it fires. Scenario time 0 is the moment scanning
    /// started (`LiveCapture.scanStartMicros`); scenario inputs and lost timers fire when the
    /// host's clock reaches them (checked every `LiveCapture.tickMillis`); the session ends
    /// when the capture does, with the engine advanced to that moment and the inputs after
    /// it not applied.
    ///
    /// The events are those `run(scenario:captures:…)` gives for the capture written from the
    /// same session, with the scenario's time origin set to `originUnixMicros` and its end
    /// to `endMicros` (inputs after it dropped): `replay --time-origin --end`.
    package func runLive(
        scenario: Scenario, capture: LiveCapture, onEvent: (EngineEvent) -> Void, onIssue: (DecodeIssue) -> Void
    ) throws(ReplayError) -> LiveResult {
        // The capture holds the tick closure only while this call runs.
        try withoutActuallyEscaping(onEvent) { (onEvent) throws(ReplayError) in
            try runLive(scenario: scenario, capture: capture, escapingOnEvent: onEvent, onIssue: onIssue)
        }
    }

    private func runLive(
        scenario: Scenario, capture: LiveCapture, escapingOnEvent onEvent: @escaping (EngineEvent) -> Void,
        onIssue: (DecodeIssue) -> Void
    ) throws(ReplayError) -> LiveResult {
        let origin = capture.scanStartMicros
        var engine = SubscriptionEngine(
            registry: scenario.registry.placed(originUnixMicros: origin), initialState: scenario.initialState,
            configuration: scenario.configuration)
        var events: [EngineEvent] = []
        var feed = ScenarioInputFeed(scenario)
        var failure: EngineInputError?
        var sightings = 0, early = 0
        var endMicros: Int64 = 0

        func emit() {
            for e in events { onEvent(e) }
            events.removeAll(keepingCapacity: true)
        }
        func reach(_ time: Int64) throws(EngineInputError) {
            try feed.due(through: time) { (_, t, input) throws(EngineInputError) in
                try engine.apply(input, at: t, into: &events)
            }
            try engine.advance(to: max(time, engine.now), into: &events)
        }
        capture.onTick = { now in
            guard failure == nil else { return }
            endMicros = now - origin
            do throws(EngineInputError) {
                try reach(endMicros)
            } catch {
                failure = error
            }
            emit()
        }
        let accounting = CaptureDecoder.decode(
            capture, name: capture.source.description,
            onAdvertisement: { decoded in
                guard failure == nil, let t = decoded.advertisement.timestampMicros.map({ $0 - origin }) else { return }
                guard t >= 0 else {
                    if !decoded.beacons.isEmpty { early += 1 }
                    return
                }
                let rssi = decoded.advertisement.rssiDBm
                do throws(EngineInputError) {
                    // Inputs at the same time come first (ENGINE-O1A).
                    try reach(t)
                    SightingExtractor.identities(decoded) { identity in
                        guard failure == nil else { return }
                        sightings += 1
                        do throws(EngineInputError) {
                            try engine.sight(
                                Sighting(timeMicros: t, medium: .ble, identity: identity, rssiDBm: rssi), into: &events)
                        } catch {
                            failure = error
                        }
                    }
                } catch {
                    failure = error
                }
                emit()
            }, onIssue: onIssue)
        capture.onTick = nil
        if let failure { throw ReplayError(.inputRefused, failure.reason) }
        return LiveResult(
            originUnixMicros: origin, endMicros: endMicros, captureSightings: sightings,
            inputsNotReached: feed.remaining, advertisementsBeforeStart: early, accounting: accounting)
    }
}
