import Foundation
import NearbyBytes
import NearbyMessages
import NearbyModelSupport
import Testing

/// `SubscriptionEngine` against `ReferenceModel` (a plain engine written from
/// docs/spec/engine.md alone) on seeded random scenarios (`ScenarioGenerator`): every app
/// action, state field, strategy and beacon-strategy option, the consent dialog, terminate and
/// launch, id reuse, low-power scan settings, canonically equivalent strings, namespace "" and
/// reserved-namespace registry messages, Eddystone-EID beacons, `end`, `timeOrigin`, large
/// times and TTLs at the limit, and in one scenario in four a crowd of subscriptions. Both must refuse the same inputs and emit the same events, byte
/// for byte. One scenario in ten goes through the file layer: written as a scenario file, read
/// back by the product's reader (`Scenario(json:)`), and run as `replay` runs it
/// (`ReplayModelTests` adds capture files and `ReplaySession`).
///
/// `swift test` runs 3,000 scenarios. More, in a release build:
/// `NEARBY_MODEL_SCENARIOS=100000 swift test -c release -j 1 --filter EngineModelTests`
/// (`NEARBY_MODEL_SEED` sets the first seed; a failure names the seed that reproduces it).
struct EngineModelTests {
    @Test func theEngineAndThePlainModelAgreeOnRandomScenarios() {
        let env = ProcessInfo.processInfo.environment
        let count = env["NEARBY_MODEL_SCENARIOS"].flatMap(UInt64.init) ?? 3_000
        let first = env["NEARBY_MODEL_SEED"].flatMap(UInt64.init) ?? 1
        var tally = Tally()
        let started = Date()
        for seed in first..<(first + count) {
            let failure =
                seed % 10 == 0
                ? Self.compareThroughFile(seed: seed, tally: &tally) : Self.compare(seed: seed, tally: &tally)
            guard let failure else { continue }
            Issue.record(Comment(rawValue: failure))
            return
        }
        // The generator must reach every corner it claims to; a generator that stopped
        // producing dialogs or founds would make agreement meaningless.
        if count >= 500 {
            for kind in EngineEvent.Kind.allCases {
                #expect(tally.events[kind, default: 0] > 0, "no \(kind.rawValue) event in \(count) scenarios")
            }
            for source in ReferenceModel.Source.allCases {
                #expect(tally.counted[source, default: 0] > 0, "no counted \(source) sighting")
            }
            #expect(tally.refused > 0 && tally.reservedMerged > 0 && tally.lowPowerMissed > 0)
            #expect(tally.eidResolved > 0 && tally.eidFound > 0 && tally.ends > 0 && tally.origins > 0)
            #expect(tally.throughFile > 0 && tally.longTTL > 0)
        }
        print(
            "EngineModelTests: "
                + tally.events.sorted { $0.key.rawValue < $1.key.rawValue }
                .map { "\($0.key.rawValue) \($0.value)" }.joined(separator: ", ")
                + "; merged \(tally.reservedMerged), lowPowerMissed \(tally.lowPowerMissed), EIDs resolved "
                + "\(tally.eidResolved), EID founds \(tally.eidFound), ends \(tally.ends), origins \(tally.origins), "
                + "TTLs at the limit \(tally.longTTL), through the file \(tally.throughFile)"
        )
        print(
            "EngineModelTests: \(count) scenarios from seed \(first), \(tally.inputs) inputs, "
                + "\(tally.events.values.reduce(0, +)) events, \(tally.refused) refused inputs, "
                + String(format: "%.1f s", Date().timeIntervalSince(started)) + "; the engines agree"
        )
    }

    struct Tally {
        var events: [EngineEvent.Kind: Int] = [:]
        var counted: [ReferenceModel.Source: Int] = [:]
        var inputs = 0
        var refused = 0
        /// Found events of a reserved message that a registry message equals (ENGINE-R4).
        var reservedMerged = 0
        /// Beacon sightings the model says fall outside the low-power window of the last subscription (ENGINE-A6).
        var lowPowerMissed = 0
        var eidResolved = 0
        var eidFound = 0
        var ends = 0
        var origins = 0
        var longTTL = 0
        var throughFile = 0

        mutating func add(_ s: ModelScenario, _ model: ReferenceModel, _ refusals: [ReferenceModel.Refusal?]) {
            inputs += s.inputs.count
            refused += refusals.filter { $0 != nil }.count
            for e in model.events {
                events[e.kind, default: 0] += 1
                if e.kind == .found, let m = e.message, m.namespace == ScenarioGenerator.reservedNamespace,
                    s.publications.contains(where: { ReferenceModel.MessageKey($0.message) == .init(m) })
                        || s.beacons.contains(where: {
                            $0.attachments.contains { ReferenceModel.MessageKey($0) == .init(m) }
                        })
                {
                    reservedMerged += 1
                }
            }
            for (k, v) in model.counted { counted[k, default: 0] += v }
            eidResolved += model.eidResolved
            if model.counted[.beacon] != nil, s.beacons.contains(where: { $0.ephemeralID != nil }),
                model.eidResolved > 0
            {
                eidFound += 1
            }
            if s.end != nil { ends += 1 }
            if s.originUnixMicros != nil { origins += 1 }
            for input in s.inputs {
                guard case .action(_, let a) = input else { continue }
                switch a {
                case .subscribe(_, let p) where p.strategy.ttl == .micros(86_400_000_000): longTTL += 1
                case .publish(_, let p) where p.strategy.ttl == .micros(86_400_000_000): longTTL += 1
                default: break
                }
            }
            for input in s.inputs {
                if case .sighting(let x, _) = input, ReferenceModel.source(of: x) == .beacon,
                    let sub = model.subscriptions.last, model.outsideWindow(sub, at: x.timeMicros)
                {
                    lowPowerMissed += 1
                }
            }
        }
    }

    /// Runs scenario `seed` through both, in memory; nil when they agree, else what differs.
    static func compare(seed: UInt64, tally: inout Tally) -> String? {
        // One scenario in four with a crowd of ids: many live subscriptions sharing filters.
        var g = ScenarioGenerator(seed: seed, crowded: seed % 4 == 3)
        let s = g.make()
        let (_, refusals, model) = s.runModel()
        tally.add(s, model, refusals)
        return s.disagreement().map { "seed \(seed): \($0)\ninputs:\n\(s.log)" }
    }

    /// Runs scenario `seed` through the file layer: the accepted inputs written as a scenario
    /// file, read back by the product's reader, run by the engine as `replay` runs it (the
    /// registry placed by the time origin), against the model on the same inputs.
    static func compareThroughFile(seed: UInt64, tally: inout Tally) -> String? {
        var g = ScenarioGenerator(seed: seed, fileSafe: true)
        let s = g.make().accepted()
        let (modelEvents, refusals, model) = s.runModel()
        tally.add(s, model, refusals)
        tally.throughFile += 1
        let text = ModelScenarioJSON.scenario(s).text() + "\n"
        let got: [EngineEvent]
        switch ScenarioFileRun.events(text) {
        case .success(let events): got = events
        case .failure(.refusedByReader(let why)): return "seed \(seed): the scenario file is refused: \(why)\n\(text)"
        case .failure(.refusedByEngine(let why)):
            return "seed \(seed): the engine refuses an input the reader accepted: \(why)\n\(text)"
        }
        guard let d = ScenarioFileRun.firstDifference(engine: got, model: modelEvents) else { return nil }
        return "seed \(seed) (through the file): event #\(d.index) differs\n  engine: \(d.engine)\n"
            + "  model:  \(d.model)\n\(text)"
    }
}
