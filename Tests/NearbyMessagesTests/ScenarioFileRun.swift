import NearbyMessages
import NearbyModelSupport

/// A scenario file's text run through the product's reader and the engine as `replay` runs
/// it (the registry placed by the time origin; `end`, or every pending lost), for the tests
/// that hold the engine to the plain model through the file layer.
enum ScenarioFileRun {
    enum Failure: Error {
        /// The reader refused the text.
        case refusedByReader(String)
        /// The engine refused an input the reader accepted.
        case refusedByEngine(String)
    }

    static func events(_ text: String) -> Result<[EngineEvent], Failure> {
        let read: Scenario
        do {
            read = try ModelScenarioJSON.read(text)
        } catch {
            return .failure(.refusedByReader("\(error)"))
        }
        let origin: Int64 =
            switch read.timeOrigin {
            case .unixMicros(let u): u
            case .firstAdvertisement: 0
            }
        var engine = SubscriptionEngine(
            registry: read.registry.placed(originUnixMicros: origin), initialState: read.initialState,
            configuration: read.configuration)
        var got: [EngineEvent] = []
        do {
            for (t, input) in read.inputs {
                switch input {
                case .action(let a): try engine.perform(a, at: t, into: &got)
                case .sighting(let x): try engine.sight(x, into: &got)
                }
            }
        } catch {
            return .failure(.refusedByEngine("\(error)"))
        }
        if let end = read.endMicros {
            try? engine.advance(to: max(end, engine.now), into: &got)
        } else {
            engine.finish(into: &got)
        }
        return .success(got)
    }

    /// The first event where the engine's and the model's renderings differ: its index and
    /// both renderings (`(none)` past an end); nil when they agree.
    static func firstDifference(
        engine: [EngineEvent], model: [ReferenceModel.Event]
    ) -> (index: Int, engine: String, model: String)? {
        let a = engine.map(ModelScenario.render), b = model.map(ModelScenario.render)
        guard a != b else { return nil }
        let i = (0..<min(a.count, b.count)).first { a[$0] != b[$0] } ?? min(a.count, b.count)
        return (i, i < a.count ? a[i] : "(none)", i < b.count ? b[i] : "(none)")
    }
}
