import Foundation
import NearbyBytes
import NearbyJSON
import NearbyMessages
import NearbyModelSupport
import NearbySecurity
import NearbyTestSupport
import Testing

/// Writes and checks `Vectors/scenarios/model-themes.json` and `model-generated.json`: scenario
/// vectors whose expected events are the plain model's (`ReferenceModel`, source
/// `second-implementation`), each agreed by the engine. The themes are picked by hand, rule by
/// rule, with their boundaries (timeouts to the microsecond, expiries and permission changes at
/// the instant of a sighting, id reuse, terminate and launch, the refusals of ENGINE-V1); the
/// generated ones are cases of the differential generator (`ScenarioGenerator`), minimized to
/// the fewest inputs and registry entries that keep what they show, and named after it.
///
/// `NEARBY_WRITE_MODEL_VECTORS=1 swift test --filter ModelVectorTests` writes the files;
/// without it the test checks that the committed files are what it would write.
struct ModelVectorTests {
    static let files = ["model-themes.json", "model-generated.json"]

    @Test func theModelVectorsAreUpToDateAndAgreedByTheEngine() throws {
        let themes = Self.themes()
        let generated = Self.generated(count: 330)
        var problems: [String] = []
        var sideFiles: [String: String] = [:]
        let texts = [
            Self.file(
                "Scenario vectors picked by hand, rule by rule, with the boundaries of each rule: the expected events "
                    + "are the plain model's (Tests/NearbyModelSupport/ReferenceModel.swift), agreed by the engine; "
                    + "written by ModelVectorTests.",
                themes, &problems, &sideFiles),
            Self.file(
                "Scenario vectors from the differential generator (Tests/NearbyModelSupport/ModelScenario.swift), "
                    + "each minimized to the fewest inputs and registry entries that keep what its name says; the "
                    + "expected events are the plain model's, agreed by the engine; written by ModelVectorTests.",
                generated, &problems, &sideFiles),
        ]
        for p in problems { Issue.record(Comment(rawValue: p)) }
        let folder = RepositoryPaths.root + "/Vectors/scenarios/"
        let write = ProcessInfo.processInfo.environment["NEARBY_WRITE_MODEL_VECTORS"] == "1"
        // Scenarios whose registry has an EDDYSTONE_EID beacon are files of their own under
        // Captures/model/, as the synthesized vectors' are: the vector schema's inline registry
        // has no EDDYSTONE_EID beacon.
        let sideFolder = RepositoryPaths.root + "/Captures/model/"
        let existing = (try? FileManager.default.contentsOfDirectory(atPath: sideFolder)) ?? []
        if write {
            try FileManager.default.createDirectory(atPath: sideFolder, withIntermediateDirectories: true)
            for f in existing where sideFiles[f] == nil { try FileManager.default.removeItem(atPath: sideFolder + f) }
        } else {
            #expect(
                Set(existing) == Set(sideFiles.keys), "Captures/model/ holds other files than ModelVectorTests writes")
        }
        for (name, text) in sideFiles.sorted(by: { $0.key < $1.key }) {
            if write {
                try text.write(toFile: sideFolder + name, atomically: true, encoding: .utf8)
            } else {
                #expect(
                    (try? String(contentsOfFile: sideFolder + name, encoding: .utf8)) == text,
                    "Captures/model/\(name) is not what ModelVectorTests writes")
            }
        }
        for (name, text) in zip(Self.files, texts) {
            if write {
                try text.write(toFile: folder + name, atomically: true, encoding: .utf8)
            } else {
                let committed = try? String(contentsOfFile: folder + name, encoding: .utf8)
                #expect(
                    committed == text,
                    Comment(
                        rawValue: "Vectors/scenarios/\(name) is not what ModelVectorTests writes: run it with "
                            + "NEARBY_WRITE_MODEL_VECTORS=1"))
            }
        }
        print("ModelVectorTests: \(themes.count) themes, \(generated.count) generated vectors")
    }

    // MARK: a vector

    struct Spec {
        var name: String
        var description: String
        var clauses: [String]
        var flags: [String]
        var scenario: ModelScenario
        /// For input the rules refuse: the JSON path and a phrase of the reason.
        var refused: (path: String, reason: String)?
    }

    static func file(
        _ description: String, _ specs: [Spec], _ problems: inout [String], _ sideFiles: inout [String: String]
    ) -> String {
        var vectors: [J] = []
        var ids: Set<String> = []
        for spec in specs {
            let id = "scenario/model/" + spec.name
            if !ids.insert(id).inserted { problems.append("\(id) is written twice") }
            guard let v = vector(spec, id: id, &problems, &sideFiles) else { continue }
            vectors.append(v)
        }
        return J.object([("vectorFile", .int(1)), ("description", .string(description)), ("vectors", .array(vectors))])
            .text() + "\n"
    }

    static let clauseOrder = [
        "ENGINE-O1", "ENGINE-O1A", "ENGINE-O2", "ENGINE-O3", "ENGINE-A1", "ENGINE-A2", "ENGINE-A3", "ENGINE-A4",
        "ENGINE-A5", "ENGINE-A6", "ENGINE-R1", "ENGINE-R2", "ENGINE-R2A", "ENGINE-R3", "ENGINE-R3A", "ENGINE-R4",
        "ENGINE-F0", "ENGINE-F1", "ENGINE-F2", "ENGINE-F3", "ENGINE-F4", "ENGINE-F5", "ENGINE-F6", "ENGINE-F7",
        "ENGINE-F8", "ENGINE-F9", "ENGINE-P1", "ENGINE-P2", "ENGINE-H1", "ENGINE-H2", "ENGINE-H3", "ENGINE-H4",
        "ENGINE-H5", "ENGINE-D1", "ENGINE-D2", "ENGINE-D3", "ENGINE-D4", "ENGINE-L1", "ENGINE-L2", "ENGINE-L3",
        "ENGINE-V1",
    ]

    /// The vector, after checking that the product reads the scenario as written and that the
    /// engine, run as `replay` runs it, gives the model's events (or refuses where expected).
    static func vector(
        _ spec: Spec, id: String, _ problems: inout [String], _ sideFiles: inout [String: String]
    ) -> J? {
        let scenario = ModelScenarioJSON.scenario(spec.scenario)
        let text = scenario.text() + "\n"
        var expect: J
        if let r = spec.refused {
            do {
                _ = try ModelScenarioJSON.read(text)
                problems.append("\(id): the reader accepts the scenario, expected a refusal at \(r.path)")
            } catch let e as JSONInputError {
                if e.path != r.path || !e.reason.contains(r.reason) {
                    problems.append("\(id): refused at \(e.location) (\(e.reason)), expected \(r.path) (\(r.reason))")
                }
            } catch {
                problems.append("\(id): \(error)")
            }
            expect = .object([("refused", .object([("path", .string(r.path)), ("reason", .string(r.reason))]))])
        } else {
            let (events, refusals, _) = spec.scenario.runModel()
            if let i = refusals.firstIndex(where: { $0 != nil }) {
                problems.append("\(id): the model refuses input #\(i) (\(String(describing: refusals[i]!)))")
                return nil
            }
            if let d = engineDisagreement(text, events) { problems.append("\(id): \(d)") }
            expect = .object([("events", .array(events.map(ModelScenarioJSON.event)))])
        }
        var reference = scenario
        if spec.scenario.beacons.contains(where: { $0.ephemeralID != nil }) {
            let name = spec.name.replacingOccurrences(of: "/", with: "-") + ".scenario.json"
            sideFiles[name] = text
            reference = .string("../../Captures/model/" + name)
        }
        let clauses = clauseOrder.filter(spec.clauses.contains)
        if clauses.count != Set(spec.clauses).count { problems.append("\(id): unknown clause in \(spec.clauses)") }
        return .object([
            ("id", .string(id)), ("kind", .string("scenario")), ("description", .string(spec.description)),
            ("clauses", .array(clauses.map(J.string))), ("flags", .array(spec.flags.sorted().map(J.string))),
            ("source", .string(spec.refused == nil ? "second-implementation" : "hand")),
            ("verdict", .string(spec.refused == nil ? "valid" : "invalid")), ("scenario", reference),
            ("expect", expect),
        ])
    }

    /// Runs the scenario file `text` through the product's reader and the engine as `replay`
    /// does; nil when its events are `expected`.
    static func engineDisagreement(_ text: String, _ expected: [ReferenceModel.Event]) -> String? {
        switch ScenarioFileRun.events(text) {
        case .failure(.refusedByReader(let why)): return "the reader refuses the scenario: \(why)"
        case .failure(.refusedByEngine(let why)): return "the engine refuses an input: \(why)"
        case .success(let got):
            guard let d = ScenarioFileRun.firstDifference(engine: got, model: expected) else { return nil }
            return "the engine disagrees at event #\(d.index): engine \(d.engine), model \(d.model)"
        }
    }

    // MARK: minimizing

    /// Whether every input is accepted and `keeps` holds for the model's events.
    static func holds(_ s: ModelScenario, _ keeps: ([ReferenceModel.Event], ModelScenario) -> Bool) -> Bool {
        let (events, refusals, _) = s.runModel()
        return !refusals.contains { $0 != nil } && keeps(events, s)
    }

    /// The scenario with as few inputs, registry entries and settings as keep `keeps` true.
    static func minimize(
        _ start: ModelScenario, _ keeps: ([ReferenceModel.Event], ModelScenario) -> Bool
    ) -> ModelScenario {
        var s = start
        func attempt(_ change: (inout ModelScenario) -> Void) -> Bool {
            var c = s
            change(&c)
            guard holds(c, keeps) else { return false }
            s = c
            return true
        }
        _ = attempt { $0.end = nil }
        var chunk = max(1, s.inputs.count / 2)
        while true {
            var i = 0, removed = false
            while i < s.inputs.count {
                let range = i..<min(s.inputs.count, i + chunk)
                if attempt({ $0.inputs.removeSubrange(range) }) { removed = true } else { i += chunk }
            }
            if chunk == 1 && !removed { break }
            chunk = max(1, chunk / 2)
        }
        var p = 0
        while p < s.publications.count { if !attempt({ $0.publications.remove(at: p) }) { p += 1 } }
        for p in s.publications.indices {
            var a = 0
            while a < s.publications[p].tokens.count, s.publications[p].tokens.count > 1 {
                if !attempt({ $0.publications[p].tokens.remove(at: a) }) { a += 1 }
            }
            _ = attempt { $0.publications[p].fromMicros = nil }
            _ = attempt { $0.publications[p].untilMicros = nil }
        }
        var b = 0
        while b < s.beacons.count { if !attempt({ $0.beacons.remove(at: b) }) { b += 1 } }
        for b in s.beacons.indices {
            var a = 0
            while a < s.beacons[b].attachments.count {
                if !attempt({ $0.beacons[b].attachments.remove(at: a) }) { a += 1 }
            }
        }
        // Each action's parameters, one at a time, back to their defaults.
        for i in s.inputs.indices {
            guard case .action(let t, let a) = s.inputs[i] else { continue }
            for simpler in simplifications(a) {
                _ = attempt { $0.inputs[i] = .action(t, simpler) }
            }
        }
        for field in 0..<6 {
            _ = attempt { $0.initial = $0.initial.without(field) }
        }
        _ = attempt { $0.lowPowerScan = nil }
        _ = attempt { $0.lostTimeoutMicros = nil }
        _ = attempt { $0.projectNamespace = "" }
        _ = attempt { s in
            if !s.beacons.contains(where: {
                if case .unixMicros? = $0.ephemeralID?.registeredAt { true } else { false }
            }) {
                s.originUnixMicros = nil
            }
        }
        // Times: move the scenario to start at 0 when nothing depends on where it starts.
        if let first = s.inputs.first?.time, first > 0, let moved = s.shifted(by: -first) {
            _ = attempt { $0 = moved }
        }
        return s
    }

    /// Simpler forms of an action: each parameter at its default, each state field left out.
    static func simplifications(_ a: EngineAction) -> [EngineAction] {
        switch a {
        case .subscribe(let id, let p):
            var out: [SubscriptionParams] = []
            func with(_ change: (inout SubscriptionParams) -> Void) {
                var q = p
                change(&q)
                if q != p { out.append(q) }
            }
            with { $0.strategy = Strategy(ttl: $0.strategy.ttl) }
            with { $0.beaconStrategy = BeaconStrategy() }
            with { $0.permissionRequestHandler = false }
            with { $0.messageNamespace = "" }
            with { $0.type = "" }
            with { $0.deviceTypes = .nearbyDevices }
            with { $0.deviceTypes = .bleBeacons }
            with { $0.strategy.mediums = .default }
            with { $0.strategy.mode = .default }
            with { $0.strategy.allowInBackground = false }
            with { $0.strategy.ttl = .default }
            with { $0.beaconStrategy.includeIBeacons = true }
            with { $0.beaconStrategy.lowPowerPreferred = true }
            with { $0.beaconStrategy.allowInBackground = false }
            return out.map { .subscribe(id: id, $0) }
        case .publish(let id, let p):
            var out: [PublicationParams] = []
            func with(_ change: (inout PublicationParams) -> Void) {
                var q = p
                change(&q)
                if q != p { out.append(q) }
            }
            with { $0.strategy = Strategy(ttl: $0.strategy.ttl) }
            with { $0.permissionRequestHandler = false }
            with { $0.message = Message(namespace: "", type: "", content: []) }
            with { $0.strategy.mediums = .default }
            with { $0.strategy.mode = .default }
            with { $0.strategy.allowInBackground = false }
            with { $0.strategy.ttl = .default }
            return out.map { .publish(id: id, $0) }
        case .changeState(let c):
            return (0..<6).map { c.without($0) }.filter { $0 != c && $0 != StateChange() }.map { .changeState($0) }
        default:
            return []
        }
    }

    /// Removes the registry entries a hand-written theme does not need for its events.
    static func pruned(_ s: ModelScenario) -> ModelScenario {
        let events = s.runModel().events
        return minimizeRegistry(s) { e, _ in e == events }
    }

    static func minimizeRegistry(
        _ start: ModelScenario, _ keeps: ([ReferenceModel.Event], ModelScenario) -> Bool
    ) -> ModelScenario {
        var s = start
        var p = 0
        while p < s.publications.count {
            var c = s
            c.publications.remove(at: p)
            if holds(c, keeps) { s = c } else { p += 1 }
        }
        var b = 0
        while b < s.beacons.count {
            var c = s
            c.beacons.remove(at: b)
            if holds(c, keeps) { s = c } else { b += 1 }
        }
        return s
    }
}

extension StateChange {
    /// This change without field `i` (in the order of the scenario format's state fields).
    func without(_ i: Int) -> StateChange {
        var c = self
        switch i {
        case 0: c.nearbyPermission = nil
        case 1: c.bluetoothPowerOn = nil
        case 2: c.bluetoothPermission = nil
        case 3: c.microphonePermission = nil
        case 4: c.locationPermission = nil
        default: c.appState = nil
        }
        return c
    }
}

extension ModelScenario {
    /// The same scenario `delta` µs later (registry intervals and EID registrations too), or
    /// nil when a registry time would fall before 0.
    func shifted(by delta: Int64) -> ModelScenario? {
        let bounds = publications.flatMap { p in
            [p.fromMicros, p.untilMicros] + p.tokens.flatMap { [$0.fromMicros, $0.untilMicros] }
        }
        if bounds.contains(where: { b in b.map { $0 + delta < 0 } ?? false }) { return nil }
        var s = self
        s.inputs = inputs.map { input -> Input in
            switch input {
            case .action(let t, let a): return .action(t + delta, a)
            case .sighting(var x, let c):
                x.timeMicros += delta
                return .sighting(x, capture: c)
            }
        }
        s.end = end.map { $0 + delta }
        s.publications = publications.map { p in
            var p = p
            p.fromMicros = p.fromMicros.map { $0 + delta }
            p.untilMicros = p.untilMicros.map { $0 + delta }
            p.tokens = p.tokens.map { a in
                var a = a
                a.fromMicros = a.fromMicros.map { $0 + delta }
                a.untilMicros = a.untilMicros.map { $0 + delta }
                return a
            }
            return p
        }
        s.beacons = beacons.map { b in
            guard let e = b.ephemeralID else { return b }
            let at: EphemeralIDRegistration.Time =
                switch e.registeredAt {
                case .scenarioMicros(let m): .scenarioMicros(m + delta)
                case .unixMicros(let u): .unixMicros(u + delta)
                }
            return Registry.Beacon(
                ephemeralID: try! EphemeralIDRegistration(
                    identityKey: e.identityKey, rotationExponent: e.rotationExponent,
                    initialClockValue: e.initialClockValue, registeredAt: at),
                attachments: b.attachments)
        }
        return s
    }
}
