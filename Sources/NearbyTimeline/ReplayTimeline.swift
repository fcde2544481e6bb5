import NearbyCapture
import NearbyJSON
import NearbyMessages
import NearbyReplay

/// The timeline of a replay (`replay --html`), on the scenario's time axis: per subscription a
/// lane with its active span and expiry, and under it a lane per message it found with a bar
/// from each found to its lost (or to the end, `found open`); the callbacks that are not found
/// or lost as points; the device state that stops scanning as bands; the sightings as ticks
/// per source (a BLE address, a sound file, the scenario's own sightings), as tall as their
/// RSSI, `counted` when some subscription counted them. Every mark's text is its explain line
/// (`ExplanationOutput.text`); the result must have been made with `explain` on. Ids and lane
/// labels are told apart by their UTF-8 bytes, as the engine tells ids apart (`ExactString`).
public enum ReplayTimeline {
    public static func make(
        scenario: Scenario, result: ReplaySession.Result, title: String, notes: [String] = []
    ) -> Timeline {
        let events = result.events
        var evidence: [Int: String] = [:]
        var sightings: [(ReplayExplanation.SightingRecord, [SubscriptionEngine.SightingVerdict], String)] = []
        for x in result.explanations {
            switch x.body {
            case .evidence(let i, _): evidence[i] = trim(ExplanationOutput.text(x))
            case .sighting(let r, let v): sightings.append((r, v, ExplanationOutput.text(x)))
            }
        }
        var start: Int64 = 0, end: Int64 = scenario.endMicros ?? 0
        for (t, _) in scenario.inputs { (start, end) = (min(start, t), max(end, t)) }
        for e in events { (start, end) = (min(start, e.timeMicros), max(end, e.timeMicros)) }
        for s in sightings { (start, end) = (min(start, s.0.sighting.timeMicros), max(end, s.0.sighting.timeMicros)) }
        if end <= start { end = start + 1_000_000 }
        var t = Timeline(title: title, axisLabel: "scenario time", startMicros: start, endMicros: end)
        let found = events.count { $0.kind == .found }, lost = events.count { $0.kind == .lost }
        t.notes =
            notes + [
                "\(events.count) callbacks (\(found) found, \(lost) lost); \(sightings.count) sightings"
            ]
        func describe(_ i: Int) -> String {
            EventText.row(events[i]) + (evidence[i].map { "\n" + $0 } ?? "")
        }
        t.groups.append(Timeline.Group(title: "Subscriptions and the messages they found"))
        t.groups[0].lanes = subscriptionLanes(scenario, events, end: end, describe: describe)
        let publications = publicationLanes(scenario, events, end: end, describe: describe)
        if !publications.isEmpty { t.groups.append(Timeline.Group(title: "Publications", lanes: publications)) }
        var callbacks = Timeline.Lane(label: "permission and error callbacks")
        for (i, e) in events.enumerated() where e.subscription == nil && e.publication == nil {
            let style: Timeline.Style = e.kind.rawValue.hasSuffix("Error") ? .error : .event
            callbacks.marks.append(.init(.point, style, at: e.timeMicros, text: describe(i)))
        }
        if !callbacks.marks.isEmpty { t.groups.append(Timeline.Group(title: "Callbacks", lanes: [callbacks])) }
        let state = DeviceStateLanes.make(scenario, end: end)
        if !state.isEmpty { t.groups.append(Timeline.Group(title: "Device state", lanes: state)) }
        let sightingLanes = sightingLanes(sightings)
        t.detail = Timeline.detail(forTicks: sightingLanes.map(\.marks.count))
        t.groups.append(Timeline.Group(title: "Sightings by source", lanes: sightingLanes))
        return t
    }

    static func trim(_ text: String) -> String {
        String(text.drop { $0 == " " })
    }

    static func subscriptionLanes(
        _ scenario: Scenario, _ events: [EngineEvent], end: Int64, describe: (Int) -> String
    ) -> [Timeline.Lane] {
        let (order, active) = activeSpans(scenario, events, publications: false, end: end)
        var lanes: [Timeline.Lane] = []
        for id in order {
            var lane = Timeline.Lane(label: "subscription \(id)", marks: active[id] ?? [])
            var messages: [Message: Timeline.Lane] = [:]
            var messageOrder: [Message] = []
            var open: [Message: Int] = [:]
            for (i, e) in events.enumerated() where e.subscription.map(ExactString.init) == id {
                switch e.kind {
                case .found:
                    guard let m = e.message else { continue }
                    if messages[m] == nil {
                        messageOrder.append(m)
                        messages[m] = Timeline.Lane(label: "  " + EventText.message(m))
                    }
                    open[m] = i
                case .lost:
                    guard let m = e.message, let f = open.removeValue(forKey: m) else { continue }
                    messages[m]!.marks.append(
                        .init(
                            .bar, .found, at: events[f].timeMicros, until: e.timeMicros,
                            text: describe(f) + "\n" + describe(i)))
                case .subscriptionExpired:
                    lane.marks.append(.init(.point, .expiry, at: e.timeMicros, text: describe(i)))
                default:
                    lane.marks.append(.init(.point, .event, at: e.timeMicros, text: describe(i)))
                }
            }
            for m in messageOrder {
                guard let f = open[m] else { continue }
                messages[m]!.marks.append(
                    .init(
                        .bar, .foundOpen, at: events[f].timeMicros, until: end,
                        text: describe(f) + "\nstill found at the end of the replay"))
            }
            lanes.append(lane)
            lanes += messageOrder.map { messages[$0]! }
        }
        return lanes
    }

    /// The ids the scenario subscribes (or publishes) in the order it first does, and each
    /// one's active spans as bands: from subscribe (publish) to unsubscribe (unpublish), stop
    /// Nearby, termination or expiry, else to `end`.
    static func activeSpans(
        _ scenario: Scenario, _ events: [EngineEvent], publications: Bool, end: Int64
    ) -> ([ExactString], [ExactString: [Timeline.Mark]]) {
        enum Change {
            case open(ExactString)
            case close(ExactString)
            case closeAll
        }
        var changes: [(time: Int64, change: Change, text: String)] = []
        for (index, (time, input)) in scenario.inputs.enumerated() {
            guard case .action(let action) = input else { continue }
            let text = "scenario event \(index): \(ReplaySession.describe(input))"
            switch (action, publications) {
            case (.subscribe(let id, _), false), (.publish(let id, _), true):
                changes.append((time, .open(ExactString(id)), text))
            case (.unsubscribe(let id), false), (.unpublish(let id), true):
                changes.append((time, .close(ExactString(id)), text))
            case (.stopNearby, _), (.terminate, _): changes.append((time, .closeAll, text))
            default: break
            }
        }
        for e in events where e.kind == (publications ? .publicationExpired : .subscriptionExpired) {
            if let id = publications ? e.publication : e.subscription {
                let at = JSONValue.seconds(micros: e.timeMicros).serialized
                changes.append((e.timeMicros, .close(ExactString(id)), "\(e.kind.rawValue) at \(at) s"))
            }
        }
        // Stable: at the same time, inputs before the expiries they may cause.
        let sorted = changes.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
        var order: [ExactString] = []
        var open: [ExactString: (Int64, String)] = [:]
        var spans: [ExactString: [Timeline.Mark]] = [:]
        let verb = publications ? "published" : "subscribed"
        func close(_ id: ExactString, at time: Int64, _ text: String) {
            guard let (from, why) = open.removeValue(forKey: id) else { return }
            spans[id, default: []].append(
                .init(.band, .active, at: from, until: time, text: "\(verb): \(why); until \(text)"))
        }
        for (_, (time, change, text)) in sorted {
            switch change {
            case .open(let id):
                if spans[id] == nil && open[id] == nil { order.append(id) }
                if open[id] == nil { open[id] = (time, text) }
            case .close(let id): close(id, at: time, text)
            case .closeAll: for id in order { close(id, at: time, text) }
            }
        }
        for id in order { close(id, at: end, "the end") }
        return (order, spans)
    }

    static func publicationLanes(
        _ scenario: Scenario, _ events: [EngineEvent], end: Int64, describe: (Int) -> String
    ) -> [Timeline.Lane] {
        let (order, active) = activeSpans(scenario, events, publications: true, end: end)
        return order.map { id in
            var lane = Timeline.Lane(label: "publication \(id)", marks: active[id] ?? [])
            for (i, e) in events.enumerated() where e.publication.map(ExactString.init) == id {
                lane.marks.append(
                    .init(.point, e.kind == .publicationExpired ? .expiry : .event, at: e.timeMicros, text: describe(i))
                )
            }
            return lane
        }
    }

    static func sightingLanes(
        _ sightings: [(ReplayExplanation.SightingRecord, [SubscriptionEngine.SightingVerdict], String)]
    ) -> [Timeline.Lane] {
        var lanes: [ExactString: Timeline.Lane] = [:]
        var order: [ExactString] = []
        for (record, verdicts, text) in sightings {
            let label: ExactString
            switch record.origin {
            case .capture(let path, _):
                label = ExactString("ble \(record.address.map(\.description) ?? "?") · " + fileName(path))
            case .audio(let path, _): label = ExactString("audio · " + fileName(path))
            case .scenario: label = ExactString("scenario sightings (\(record.sighting.medium.name))")
            }
            if lanes[label] == nil {
                order.append(label)
                lanes[label] = Timeline.Lane(label: label.string)
            }
            let counted = verdicts.contains { $0.stop == nil }
            lanes[label]!.marks.append(
                .init(
                    .tick, counted ? .counted : .notCounted, at: record.sighting.timeMicros,
                    value: record.sighting.rssiDBm.map(Int.init), text: text))
        }
        return order.map { lanes[$0]! }
    }

    static func fileName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}
