import NearbyMessages

/// A scenario's timed inputs, handed on in time order beside a replay's sightings, each
/// once: those due at or before a sighting's time go before it (ENGINE-O1A). The one feed
/// of the whole, as-read and live replays.
struct ScenarioInputFeed {
    let inputs: [(time: Int64, input: Scenario.Input)]
    /// The index of the next input not yet handed on.
    private(set) var next = 0

    init(_ scenario: Scenario) {
        inputs = scenario.inputs
    }

    /// The inputs not yet handed on.
    var remaining: Int { inputs.count - next }

    /// Hands each input due at or before `time` (scenario µs) to `body`, with its index in
    /// the scenario and its time, in order. An input whose `body` throws stays due.
    mutating func due<E: Error>(
        through time: Int64, _ body: (_ index: Int, _ time: Int64, Scenario.Input) throws(E) -> Void
    ) throws(E) {
        while next < inputs.count, inputs[next].time <= time {
            let (t, input) = inputs[next]
            try body(next, t, input)
            next += 1
        }
    }
}

extension SubscriptionEngine {
    /// Applies one scenario input at scenario time `time` (µs).
    mutating func apply(
        _ input: Scenario.Input, at time: Int64, into events: inout [EngineEvent]
    ) throws(EngineInputError) {
        switch input {
        case .action(let a): try perform(a, at: time, into: &events)
        case .sighting(let s): try sight(s, into: &events)
        }
    }

    /// Ends a replay: the engine advances to the scenario's end when it has one, else to the
    /// last pending lost (`finish`).
    mutating func end(at endMicros: Int64?, into events: inout [EngineEvent]) throws(EngineInputError) {
        if let endMicros {
            try advance(to: max(endMicros, now), into: &events)
        } else {
            finish(into: &events)
        }
    }
}
