import NearbyJSON

/// A scenario (docs/scenario-format.md): the observer's initial state, the registry, and timed
/// app actions and sightings. Capture files add sightings when it is replayed.
public struct Scenario: Sendable {
    /// How scenario times relate to capture timestamps.
    public enum TimeOrigin: Hashable, Sendable {
        /// Time 0 is the timestamp of the earliest advertisement in the replayed captures
        /// (or the Unix epoch when no capture is given).
        case firstAdvertisement
        /// Time 0 is this many µs after the Unix epoch.
        case unixMicros(Int64)
    }

    /// One timed input.
    public enum Input: Hashable, Sendable {
        case action(EngineAction)
        case sighting(Sighting)
    }

    public var description: String?
    public var configuration: SubscriptionEngine.Configuration
    public var timeOrigin: TimeOrigin
    public var initialState: DeviceState
    public var registry: Registry
    /// Inputs in time order, each with its time (µs, scenario time base).
    public var inputs: [(time: Int64, input: Input)]
    /// Where the replay stops: the engine advances to this time; without it, to the last
    /// pending lost (`SubscriptionEngine.finish`).
    public var endMicros: Int64?

    public init(
        description: String? = nil, configuration: SubscriptionEngine.Configuration = .init(),
        timeOrigin: TimeOrigin = .firstAdvertisement, initialState: DeviceState = DeviceState(),
        registry: Registry = Registry(), inputs: [(time: Int64, input: Input)] = [], endMicros: Int64? = nil
    ) {
        self.description = description
        self.configuration = configuration
        self.timeOrigin = timeOrigin
        self.initialState = initialState
        self.registry = registry
        self.inputs = inputs
        self.endMicros = endMicros
    }

    /// Loads a scenario file. A `"registry"` given as a string is a path relative to the
    /// scenario's folder; `registryOverride` (a registry file) replaces it.
    public static func load(_ path: String, registryOverride: String? = nil) throws(JSONInputError) -> Scenario {
        try load(path, root: try JSONFile.load(path), registryOverride: registryOverride)
    }

    /// Builds the scenario of file `path` from its already parsed `root` (for readers that
    /// also want other parts of the file, such as its `world`).
    public static func load(
        _ path: String, root: JSONNode, registryOverride: String? = nil
    ) throws(JSONInputError) -> Scenario {
        var registryFile: String?
        var scenario: Scenario
        do {
            scenario = try Scenario(json: root, registryPath: &registryFile)
        } catch {
            throw error.in(file: path)
        }
        if let file = registryOverride ?? registryFile.map({ relative($0, to: path) }) {
            scenario.registry = try loadRegistry(file)
        }
        return scenario
    }

    /// Loads a registry file.
    public static func loadRegistry(_ path: String) throws(JSONInputError) -> Registry {
        let root = try JSONFile.load(path)
        do {
            return try Registry(json: root)
        } catch {
            throw error.in(file: path)
        }
    }

    static func relative(_ file: String, to scenarioPath: String) -> String {
        if file.hasPrefix("/") { return file }
        guard let slash = scenarioPath.lastIndex(of: "/") else { return file }
        return String(scenarioPath[...slash]) + file
    }

    /// Parses a scenario's JSON. A registry given by path is returned in `registryPath`
    /// (and left empty here) for the caller to load.
    /// A `world` object says how the scenario's captures were synthesized
    /// (docs/synthesis.md); `nearby-conformance synthesize` reads it, replay does not.
    package init(json root: JSONNode, registryPath: inout String?) throws(JSONInputError) {
        let o = try root.object(allowed: [
            "scenario", "description", "lostTimeoutSeconds", "projectNamespace", "lowPowerScan",
            "timeOrigin", "initialState", "registry", "events", "end", "world",
        ])
        _ = try o.required("scenario").integer(in: 1...1)
        self.init()
        description = try o.optional("description")?.string()
        if let t = o.optional("lostTimeoutSeconds") {
            configuration.lostTimeoutMicros = try t.microseconds(in: 1...86_400_000_000)
        }
        if let n = o.optional("projectNamespace") { configuration.projectNamespace = try n.string() }
        if let n = o.optional("lowPowerScan") { configuration.lowPowerScan = try ModelJSON.lowPowerScan(n) }
        if let t = o.optional("timeOrigin") {
            if case .string = t.value {
                _ = try t.choice(["firstAdvertisement"])
            } else {
                let to = try t.object(allowed: ["unixSeconds"])
                timeOrigin = .unixMicros(try to.required("unixSeconds").microseconds(in: ModelJSON.timeRange))
            }
        }
        if let s = o.optional("initialState") {
            let c = try ModelJSON.stateChange(s)
            initialState.apply(c)
        }
        if let r = o.optional("registry") {
            if case .string(let p) = r.value {
                registryPath = p
            } else {
                registry = try Registry(json: r)
            }
        }
        var last: Int64 = 0
        var lastPath = ""
        // The app's actions are checked by an engine of their own (no registry, no sightings):
        // whether an id is in use, a dialog is showing or the app runs depends on the actions
        // and their times alone (TTL expiries included), and the engine's rules decide it.
        var rules = SubscriptionEngine(initialState: initialState, configuration: configuration)
        let actions = [
            "subscribe", "unsubscribe", "publish", "unpublish", "state", "stopNearby", "permissionAnswer",
            "terminate", "launch", "sighting",
        ]
        for e in try o.optional("events")?.array() ?? [] {
            let eo = try e.object(allowed: ["time", "comment"] + actions)
            let timeNode = try eo.required("time")
            let time = try ModelJSON.time(timeNode)
            if time < last {
                throw timeNode.fail(
                    "events are out of order: \(JSONValue.seconds(micros: time).serialized) s is earlier than "
                        + "\(lastPath) (\(JSONValue.seconds(micros: last).serialized) s)"
                )
            }
            last = time
            lastPath = timeNode.path
            if let c = eo.optional("comment") { _ = try c.string() }
            let present = actions.filter(eo.has)
            guard present.count == 1 else {
                throw e.fail(
                    "an event has exactly one of \(actions.joined(separator: ", ")); found "
                        + "\(present.isEmpty ? "none" : present.joined(separator: ", "))"
                )
            }
            let n = try eo.required(present[0])
            func flag(_ name: String) throws(JSONInputError) {
                guard try n.bool() else { throw n.fail("\(name) must be true") }
            }
            let action: EngineAction
            switch present[0] {
            case "subscribe":
                let (id, params) = try ModelJSON.subscription(n)
                action = .subscribe(id: id, params)
            case "unsubscribe":
                action = .unsubscribe(id: try n.string())
            case "publish":
                let (id, params) = try ModelJSON.publication(n)
                action = .publish(id: id, params)
            case "unpublish":
                action = .unpublish(id: try n.string())
            case "state":
                action = .changeState(try ModelJSON.stateChange(n))
            case "stopNearby":
                try flag("stopNearby")
                action = .stopNearby
            case "permissionAnswer":
                action = .answerPermission(granted: try n.choice(["granted", "denied"]) == "granted")
            case "terminate":
                try flag("terminate")
                action = .terminate
            case "launch":
                try flag("launch")
                action = .launch
            default:
                inputs.append((time, .sighting(try ModelJSON.sighting(n, at: time))))
                continue
            }
            do {
                var ignored: [EngineEvent] = []
                try rules.perform(action, at: time, into: &ignored)
            } catch {
                // The id is what is wrong when it is in use; otherwise the action as a whole.
                throw JSONInputError(
                    path: error.code == .idInUse ? n.member("id") : n.path, code: .invalidValue, reason: error.reason)
            }
            inputs.append((time, .action(action)))
        }
        if let end = o.optional("end") {
            endMicros = try ModelJSON.time(end)
            if endMicros! < last { throw end.fail("the end is earlier than the last event") }
        }
    }
}
