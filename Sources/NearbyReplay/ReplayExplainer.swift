import NearbyMessages

/// Feeds the engine as `ReplaySession` does, and writes down why (`replay --explain`): each
/// input's timers are fired first on their own (ENGINE-O2), so that every event is known to come
/// from a timer, a sighting or an app action; each sighting is explained before the engine
/// takes it (`SubscriptionEngine.explain`, which is what `sight` then does). Ids are told
/// apart, keyed and ordered by their UTF-8 bytes, as the engine does (`ExactString`): "café"
/// precomposed and decomposed are two subscriptions.
struct ReplayExplainer {
    typealias Explanation = ReplayExplanation

    private(set) var lines: [Explanation] = []
    /// Every subscription id the scenario makes, in UTF-8 byte order.
    private let subscriptionIDs: [ExactString]
    private let lostTimeoutMicros: Int64
    /// The latest counted sighting of each (subscription, message) found, per source: the
    /// evidence ENGINE-F2 and ENGINE-F3 weigh, kept as the engine keeps it.
    private var evidence: [Key: [EvidenceSource: Explanation.SightingRecord]] = [:]

    /// Each subscription's tally, by id.
    private var tallies: [ExactString: Explanation.SubscriptionSummary] = [:]

    /// What each subscription made of the sightings, in id order.
    var summaries: [Explanation.SubscriptionSummary] { subscriptionIDs.compactMap { tallies[$0] } }

    private struct Key: Hashable {
        var subscription: ExactString
        var message: Message
    }

    init(scenario: Scenario) {
        var ids = Set<ExactString>()
        for (_, input) in scenario.inputs {
            if case .action(.subscribe(let id, let p)) = input {
                ids.insert(ExactString(id))
                tallies[ExactString(id)] = Explanation.SubscriptionSummary(
                    subscription: id, namespace: p.messageNamespace, type: p.type)
            }
        }
        subscriptionIDs = ids.sorted()
        lostTimeoutMicros = scenario.configuration.lostTimeoutMicros
    }

    /// Fires the timers due by `time` and explains their events.
    mutating func advance(
        _ engine: inout SubscriptionEngine, to time: Int64, _ events: inout [EngineEvent]
    ) throws(EngineInputError) {
        let start = events.count
        try engine.advance(to: time, into: &events)
        explainTimers(events, from: start)
    }

    /// Explains events `start...` of `events`, all fired by timers (ENGINE-F2, ENGINE-F6, ENGINE-P1).
    mutating func explainTimers(_ events: [EngineEvent], from start: Int) {
        for i in start..<events.count { explainTimer(events, i) }
    }

    mutating func sight(
        _ engine: inout SubscriptionEngine, _ record: Explanation.SightingRecord, _ events: inout [EngineEvent]
    ) throws(EngineInputError) {
        try advance(&engine, to: record.sighting.timeMicros, &events)
        let made = Dictionary(
            uniqueKeysWithValues: engine.explain(record.sighting).map { (ExactString($0.subscription), $0) })
        let verdicts = subscriptionIDs.map { id in
            made[id] ?? SubscriptionEngine.SightingVerdict(subscription: id.string, stop: .notSubscribedYet)
        }
        lines.append(Explanation(afterEvent: events.count, body: .sighting(record, verdicts)))
        for v in verdicts {
            let id = ExactString(v.subscription)
            tallies[id]?.sightings += 1
            guard let stop = v.stop else {
                tallies[id]?.counted += 1
                continue
            }
            tallies[id]?.notCounted[stop.rule + " " + stop.code, default: 0] += 1
            for m in v.standsFor { tallies[id]?.filteredOut[m.namespace + "/" + m.type, default: 0] += 1 }
        }
        for v in verdicts {
            for m in v.messages {
                let key = Key(subscription: ExactString(v.subscription), message: m.message)
                evidence[key, default: [:]][record.sighting.source] = record
            }
        }
        let start = events.count
        try engine.sight(record.sighting, into: &events)
        for i in start..<events.count {
            add(
                i, events[i],
                Explanation.Evidence(
                    rule: "F1", reason: "the first counted sighting of the message since it was last lost",
                    sighting: record))
        }
    }

    mutating func perform(
        _ engine: inout SubscriptionEngine, _ action: EngineAction, at time: Int64, input: Explanation.InputRecord,
        _ events: inout [EngineEvent]
    ) throws(EngineInputError) {
        try advance(&engine, to: time, &events)
        let before = subscriptionIDs.map { engine.countingSources(ofSubscription: $0.string) }
        let start = events.count
        try engine.perform(action, at: time, into: &events)
        let stopped = Dictionary(
            uniqueKeysWithValues: zip(subscriptionIDs, before).map { id, was in
                (id, was.subtracting(engine.countingSources(ofSubscription: id.string)))
            })
        for i in start..<events.count {
            let e = events[i]
            var why = Explanation.Evidence(rule: "", reason: "", input: input)
            switch e.kind {
            case .lost where action == .stopNearby, .subscriptionExpired, .publicationExpired:
                why.rule = "F7"
                why.reason = "the user stopped Nearby for the app: everything expires"
            case .lost:
                why.rule = "F3"
                why.reason = "the change stopped the subscription counting the sources the message was seen on"
                why.sourcesStopped = e.subscription.flatMap { stopped[ExactString($0)] }
            default:
                (why.rule, why.reason) = Self.handlerRule(e.kind)
            }
            add(i, e, why)
        }
        // ENGINE-F3: the engine forgot the evidence of the sources stopped; ended subscriptions forget all.
        for key in evidence.keys {
            if let gone = stopped[key.subscription], !gone.isEmpty {
                for source in EvidenceSource.allCases where gone.contains(source) { evidence[key]?[source] = nil }
            }
        }
        let live = Set(engine.liveSubscriptions.map(ExactString.init))
        evidence = evidence.filter { live.contains($0.key.subscription) }
    }

    private mutating func explainTimer(_ events: [EngineEvent], _ i: Int) {
        let e = events[i]
        switch e.kind {
        case .lost:
            let key = Key(subscription: ExactString(e.subscription ?? ""), message: e.message!)
            let last = evidence[key]?.values.max { $0.sighting.timeMicros < $1.sighting.timeMicros }
            if let last, last.sighting.timeMicros + lostTimeoutMicros == e.timeMicros {
                add(
                    i, e,
                    Explanation.Evidence(
                        rule: "F2", reason: "no counted sighting for the lost timeout after the last one",
                        sighting: last, timer: "lost-timeout"))
            } else {
                add(i, e, Explanation.Evidence(rule: "F6", reason: "the subscription's TTL ran out", timer: "ttl"))
            }
        case .subscriptionExpired:
            add(i, e, Explanation.Evidence(rule: "F6", reason: "the subscription's TTL ran out", timer: "ttl"))
        case .publicationExpired:
            add(i, e, Explanation.Evidence(rule: "P1", reason: "the publication's TTL ran out", timer: "ttl"))
        default:
            let (rule, reason) = Self.handlerRule(e.kind)
            add(i, e, Explanation.Evidence(rule: rule, reason: reason + ", after an expiry", timer: "ttl"))
        }
    }

    /// Explains event `i`; a lost pair's evidence is forgotten (it starts anew when found again).
    private mutating func add(_ i: Int, _ e: EngineEvent, _ why: Explanation.Evidence) {
        lines.append(Explanation(afterEvent: i + 1, body: .evidence(event: i, why)))
        if e.kind == .lost, let m = e.message {
            evidence[Key(subscription: ExactString(e.subscription ?? ""), message: m)] = nil
        }
    }

    static func handlerRule(_ kind: EngineEvent.Kind) -> (String, String) {
        switch kind {
        case .permissionRequest: ("D1", "a subscription or publication made while the permission is not determined")
        case .permissionAlert: ("D4", "a subscription or publication made while the permission is denied")
        case .permissionChanged: ("H1", "the Nearby permission changed")
        case .bluetoothPowerError: ("H2", "whether BLE is in use while Bluetooth is off changed")
        case .bluetoothPermissionError: ("H3", "whether BLE is in use while its permission is denied changed")
        case .microphonePermissionError: ("H4", "whether audio is in use while the microphone is denied changed")
        default: ("", "")
        }
    }
}
