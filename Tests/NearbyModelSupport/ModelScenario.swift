import NearbyBytes
import NearbyJSON
import NearbyMessages
import NearbySecurity
import NearbySynthesis

/// A scenario as the differential tests make it: the parts of a scenario file, kept apart so
/// that they can be minimized (fewer inputs, fewer registry entries), run through the plain
/// model and the engine, and written as a scenario file (`json`).
package struct ModelScenario {
    package enum Input {
        case action(Int64, EngineAction)
        /// A sighting; `capture` ones go into a capture file when the scenario is replayed
        /// (`ReplayModelTests`), the others are scenario `sighting` events.
        case sighting(Sighting, capture: Bool)

        package var time: Int64 {
            switch self {
            case .action(let t, _): t
            case .sighting(let s, _): s.timeMicros
            }
        }
    }

    package var publications: [Registry.Publication] = []
    package var beacons: [Registry.Beacon] = []
    package var initial = StateChange()
    package var lostTimeoutMicros: Int64?
    package var projectNamespace = ""
    package var lowPowerScan: LowPowerScan?
    /// `timeOrigin` `{"unixSeconds": N}` as µs; nil for `"firstAdvertisement"` (the Unix
    /// epoch when no capture is replayed).
    package var originUnixMicros: Int64?
    package var inputs: [Input] = []
    package var end: Int64?

    /// No publication, beacon or input; the device state of `DeviceState()`.
    package init() {}

    package var registry: Registry { Registry(publications: publications, beacons: beacons) }
    package var state: DeviceState {
        var s = DeviceState()
        s.apply(initial)
        return s
    }
    package var configuration: SubscriptionEngine.Configuration {
        var c = SubscriptionEngine.Configuration(
            lostTimeoutMicros: lostTimeoutMicros ?? 10_000_000, projectNamespace: projectNamespace)
        if let l = lowPowerScan { c.lowPowerScan = l }
        return c
    }
    package var origin: Int64 { originUnixMicros ?? 0 }

    package func model() -> ReferenceModel {
        ReferenceModel(registry: registry, state: state, configuration: configuration, origin: origin)
    }

    package func engine() -> SubscriptionEngine {
        SubscriptionEngine(
            registry: registry.placed(originUnixMicros: origin), initialState: state, configuration: configuration)
    }

    /// The model's run: its events, the refusal of each input (nil when accepted), and the model.
    package func runModel() -> (
        events: [ReferenceModel.Event], refusals: [ReferenceModel.Refusal?], model: ReferenceModel
    ) {
        var m = model()
        var refusals: [ReferenceModel.Refusal?] = []
        for input in inputs {
            switch input {
            case .action(let t, let a): refusals.append(m.perform(a, at: t))
            case .sighting(let s, _):
                m.sight(s)
                refusals.append(nil)
            }
        }
        m.finish(end: end)
        return (m.events, refusals, m)
    }

    /// The engine's run, refusals as the model's type; a refused input changes nothing but
    /// the engine's time (the timers due by then fire, as the next input would fire them).
    package func runEngine() -> (events: [EngineEvent], refusals: [ReferenceModel.Refusal?]) {
        var e = engine()
        var got: [EngineEvent] = []
        var refusals: [ReferenceModel.Refusal?] = []
        for input in inputs {
            do {
                switch input {
                case .action(let t, let a): try e.perform(a, at: t, into: &got)
                case .sighting(let s, _): try e.sight(s, into: &got)
                }
                refusals.append(nil)
            } catch {
                let r = Self.refusal(error.code)
                refusals.append(r)
                if r != .timeOrder { try? e.advance(to: input.time, into: &got) }
            }
        }
        if let end {
            try? e.advance(to: max(end, e.now), into: &got)
        } else {
            e.finish(into: &got)
        }
        return (got, refusals)
    }

    package static func refusal(_ code: EngineInputError.Code) -> ReferenceModel.Refusal? {
        switch code {
        case .timeOrder: .timeOrder
        case .idInUse: .idInUse
        case .unknownID: .unknownID
        case .notRunning: .notRunning
        case .alreadyRunning: .alreadyRunning
        case .noDialog: .noDialog
        case .invalidParameters: .invalidParameters
        default: nil
        }
    }

    /// This scenario without the inputs the model refuses: what a scenario file can hold.
    package func accepted() -> ModelScenario {
        let r = runModel().refusals
        var s = self
        s.inputs = zip(inputs, r).filter { $0.1 == nil }.map(\.0)
        if let e = end, let last = s.inputs.last?.time, e < last { s.end = last }
        return s
    }

    // MARK: rendering

    /// Strings as their UTF-8 bytes in hex, so that canonically equivalent ones differ.
    package static func render(_ e: EngineEvent) -> String {
        render(
            .init(
                time: e.timeMicros, kind: e.kind, id: e.subscription ?? e.publication, message: e.message,
                value: e.value, publication: e.publication != nil))
    }

    package static func render(_ e: ReferenceModel.Event) -> String {
        var s = "\(e.time) \(e.kind.rawValue)"
        if let id = e.id { s += (e.publication ? " pub:" : " sub:") + Hex.encode(Array(id.utf8)) }
        if let m = e.message {
            s += " \(Hex.encode(Array(m.namespace.utf8)))/\(Hex.encode(Array(m.type.utf8)))/\(Hex.encode(m.content))"
        }
        if let v = e.value { s += " \(v)" }
        return s
    }

    /// The inputs as lines, for a report.
    package var log: String {
        inputs.map { input in
            switch input {
            case .action(let t, let a): "\(t) \(a)"
            case .sighting(let s, let c):
                "\(s.timeMicros) sight \(s.identity.kind) \(Hex.encode(s.identity.bytes)) \(s.medium)"
                    + (c ? " (capture)" : "")
            }
        }.joined(separator: "\n")
    }

    /// Where the engine and the model first differ on this scenario, or nil.
    package func disagreement() -> String? {
        let (mEvents, mRefusals, _) = runModel()
        let (eEvents, eRefusals) = runEngine()
        if let i = zip(mRefusals, eRefusals).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
            return "input #\(i): model \(String(describing: mRefusals[i])), engine \(String(describing: eRefusals[i]))"
        }
        let a = eEvents.map(Self.render), b = mEvents.map(Self.render)
        guard a != b else { return nil }
        let i = (0..<min(a.count, b.count)).first { a[$0] != b[$0] } ?? min(a.count, b.count)
        return "event #\(i) differs\n  engine: \(i < a.count ? a[i] : "(none)")\n"
            + "  model:  \(i < b.count ? b[i] : "(none)")"
    }
}

// MARK: - The generator

/// Random scenarios from a seed, over small vocabularies so that ids, messages, tokens and
/// beacons collide often: every app action, state field, strategy and beacon-strategy option,
/// the consent dialog, terminate and launch, id reuse, low-power scan settings, canonically
/// equivalent strings, namespace "" and reserved-namespace registry messages, Eddystone-EID
/// beacons (shared keys, clocks near the 32-bit wrap, sightings at the edges of the window),
/// `end`, `timeOrigin`, large times and TTLs at the 86,400 s limit.
package struct ScenarioGenerator {
    package var rng: SeededGenerator
    /// Write only what a scenario file can say (attachments with a namespace and a type) and
    /// refuse nothing by the time order (a file's events are in order by construction).
    package let fileSafe: Bool
    /// The registry's messages, which subscriptions are made to select more often than not.
    package var registered: [Message] = []
    package var scenario = ModelScenario()
    /// The ids actions name: `ids`, or for a crowded generator fourteen, so that many
    /// subscriptions live at once, share filters and end out of the order they were made.
    package let idPool: [String]

    package init(seed: UInt64, fileSafe: Bool = false, crowded: Bool = false) {
        rng = SeededGenerator(seed: seed &* 0x9E37_79B9_7F4A_7C15)
        self.fileSafe = fileSafe
        idPool = crowded ? Self.ids + (3...12).map { "s\($0)" } : Self.ids
    }

    package mutating func int(_ n: Int) -> Int { Int(rng.next() % UInt64(n)) }
    package mutating func chance(_ percent: Int) -> Bool { int(100) < percent }
    package mutating func pick<T>(_ items: [T]) -> T { items[int(items.count)] }

    // "café" precomposed and decomposed are different messages (ENGINE-R4).
    package static let reservedNamespace = "__reserved_namespace"
    package static let namespaces = ["", "proj", "other", "caf\u{E9}", "cafe\u{301}", reservedNamespace]
    package static let types = ["", "chat", "door", "caf\u{E9}", "cafe\u{301}", "__eddystone_uid", "__i_beacon_id"]
    package static let contents: [[UInt8]] = [[], [1], [2], Array("hello".utf8)]
    package static let ids = ["s1", "s2", "caf\u{E9}", "cafe\u{301}"]
    package static let tokens: [[UInt8]] = [
        [0xA1, 1, 1, 1, 1, 1], [0xA2, 2, 2, 2, 2, 2], [0xA3, 3, 3, 3, 3, 3, 3, 3], [0xA4, 4, 4, 4, 4, 4],
    ]
    package static let beaconIDs: [SightingIdentity] = [
        SightingIdentity(.eddystoneUID, Array(0x10..<0x20)), SightingIdentity(.eddystoneUID, Array(0x20..<0x30)),
        SightingIdentity(.iBeacon, Array(0x30..<0x44)), SightingIdentity(.iBeacon, Array(0x50..<0x64)),
        SightingIdentity(.altBeacon, Array(0x70..<0x84)),
    ]
    package static let eidKeys: [[UInt8]] = [Array(0x00..<0x10), [UInt8](repeating: 0x5A, count: 16)]
    /// 2023-11-14 22:13:20 UTC, a time origin.
    package static let unixBase: Int64 = 1_700_000_000_000_000

    package mutating func message(attachment: Bool = false) -> Message {
        // Namespace "proj" and type "chat" half the time, so that filters match often enough.
        var m = Message(
            namespace: chance(50) ? "proj" : pick(Self.namespaces), type: chance(40) ? "chat" : pick(Self.types),
            content: pick(Self.contents))
        if attachment && fileSafe {
            // A registry file writes an attachment as "namespace/type", both non-empty.
            if m.namespace.isEmpty { m.namespace = "proj" }
            if m.type.isEmpty { m.type = "door" }
        }
        return m
    }

    /// A message equal to a beacon's reserved message (ENGINE-R2), as a registry might hold it (ENGINE-R4).
    package mutating func reservedMessage() -> Message {
        let b = pick(Array(Self.beaconIDs.prefix(4)))
        return Message(
            namespace: Self.reservedNamespace, type: b.kind == .eddystoneUID ? "__eddystone_uid" : "__i_beacon_id",
            content: b.bytes)
    }

    package mutating func seconds(_ maxTenths: Int) -> Int64 { Int64(int(maxTenths) + 1) * 100_000 }

    package mutating func interval() -> (Int64?, Int64?) {
        let from: Int64? = chance(30) ? seconds(200) : nil
        let until: Int64? = chance(30) ? (from ?? 0) + seconds(300) : nil
        return (from, until)
    }

    package mutating func mediums() -> DiscoveryMediums { pick([.ble, .audio, .default]) }

    package mutating func eidBeacon() -> Registry.Beacon {
        let key = pick(Self.eidKeys)
        let k = pick([0, 1, 3, 10])
        let clock: UInt32 = pick([0, 1000, 0xFFFF_FF00, UInt32(truncatingIfNeeded: rng.next())])
        let at: EphemeralIDRegistration.Time =
            if let o = scenario.originUnixMicros, chance(50) {
                .unixMicros(o + Int64(int(400)) * 1_000_000 - 100_000_000)
            } else {
                .scenarioMicros(Int64(int(300)) * 1_000_000 - 100_000_000)
            }
        let r = try! EphemeralIDRegistration(
            identityKey: key, rotationExponent: k, initialClockValue: clock, registeredAt: at)
        var attachments: [Message] = []
        for _ in 0..<(1 + int(2)) { attachments.append(message(attachment: true)) }
        return Registry.Beacon(ephemeralID: r, attachments: attachments)
    }

    package mutating func setup() {
        var s = ModelScenario()
        if chance(30) { s.originUnixMicros = Self.unixBase + Int64(int(1000)) * 1_000_000 }
        scenario.originUnixMicros = s.originUnixMicros
        for i in 0..<int(5) {
            let (from, until) = interval()
            var assignments: [Registry.TokenAssignment] = []
            for _ in 0..<(1 + int(2)) {
                let (f, u) = interval()
                assignments.append(.init(token: pick(Self.tokens), mediums: mediums(), fromMicros: f, untilMicros: u))
            }
            s.publications.append(
                .init(
                    id: "p\(i)", message: chance(10) ? reservedMessage() : message(),
                    fromMicros: from, untilMicros: until, tokens: assignments))
        }
        for id in Self.beaconIDs where chance(60) {
            var attachments: [Message] = []
            for _ in 0..<int(4) { attachments.append(chance(15) ? reservedMessage() : message(attachment: true)) }
            s.beacons.append(.init(advertisedID: id, attachments: attachments))
        }
        if chance(35) { for _ in 0..<(1 + int(2)) { s.beacons.append(eidBeacon()) } }
        if chance(15) { s.initial = stateChange() }
        s.lostTimeoutMicros = pick([nil, 1_000_000, 3_000_000, 10_000_000, chance(3) ? 86_400_000_000 : 2_000_000])
        s.projectNamespace = pick(["", "proj", "caf\u{E9}"])
        if chance(50) {
            let interval = seconds(40)
            // On the inputs' 100 ms grid, so that sightings fall on a window's edges (ENGINE-A6).
            s.lowPowerScan = LowPowerScan(windowMicros: seconds(Int(interval / 100_000)), intervalMicros: interval)
        }
        registered = s.publications.map(\.message) + s.beacons.flatMap(\.attachments)
        scenario = s
    }

    package mutating func stateChange() -> StateChange {
        var c = StateChange()
        repeat {
            if chance(10) { c.nearbyPermission = chance(50) ? .granted : pick(PermissionState.allCases) }
            if chance(20) { c.bluetoothPowerOn = chance(60) }
            if chance(20) { c.bluetoothPermission = chance(50) ? .granted : pick(PermissionState.allCases) }
            if chance(20) { c.microphonePermission = chance(50) ? .granted : pick(PermissionState.allCases) }
            if chance(20) { c.locationPermission = pick(LocationPermission.allCases) }
            if chance(25) { c.appState = pick(AppState.allCases) }
        } while c == StateChange()
        return c
    }

    package mutating func strategy(infinite: Bool) -> Strategy {
        let ttl: TimeToLive =
            switch int(9) {
            case 0: infinite ? .infinite : .micros(0)
            case 1: .micros(seconds(300))
            case 2: .micros(0)  // refused (ENGINE-V1)
            case 3: .micros(pick([86_400_000_000, 86_400_000_001, 86_399_999_999, 1]))  // the limit (ENGINE-V1)
            default: .default
            }
        return Strategy(
            mediums: mediums(), mode: pick([.scan, .broadcast, .default]), allowInBackground: chance(40), ttl: ttl)
    }

    package mutating func action() -> EngineAction {
        switch int(100) {
        case 0..<30:
            let types: DeviceTypes = pick([
                .nearbyDevices, .bleBeacons, [.nearbyDevices, .bleBeacons], [.nearbyDevices, .bleBeacons],
            ])
            let target = registered.isEmpty || chance(10) ? message() : pick(registered)
            return .subscribe(
                id: pick(idPool),
                SubscriptionParams(
                    deviceTypes: types, messageNamespace: chance(20) ? "" : target.namespace,
                    type: chance(55) ? "" : target.type,
                    strategy: strategy(infinite: true),
                    beaconStrategy: BeaconStrategy(
                        includeIBeacons: chance(60), lowPowerPreferred: chance(60), allowInBackground: chance(40)),
                    permissionRequestHandler: chance(30)))
        case 30..<36: return .unsubscribe(id: pick(idPool))
        case 36..<44:
            return .publish(
                id: pick(idPool),
                PublicationParams(
                    message: message(), strategy: strategy(infinite: chance(10)),
                    permissionRequestHandler: chance(30)))
        case 44..<48: return .unpublish(id: pick(idPool))
        case 48..<80: return .changeState(stateChange())
        case 80..<82: return .stopNearby
        case 82..<92: return .answerPermission(granted: chance(70))
        case 92..<95: return .terminate
        default: return .launch
        }
    }

    /// The EID an EID beacon sends at `t`, some periods off the one its clock should be in
    /// (near and past the edge of ENGINE-R2A's window), or a random one.
    package mutating func eid(at t: Int64) -> [UInt8] {
        let eids = scenario.beacons.compactMap(\.ephemeralID)
        guard !eids.isEmpty, chance(85) else { return (0..<8).map { _ in UInt8(truncatingIfNeeded: rng.next()) } }
        let e = pick(eids)
        let t0: Int64 =
            switch e.registeredAt {
            case .scenarioMicros(let m): m
            case .unixMicros(let u): u - scenario.origin
            }
        let dt = t - t0
        let clock = Int64(e.initialClockValue) + ReferenceModel.floorDiv(dt, 1_000_000)
        let period = Int64(1) << Int64(e.rotationExponent)
        let offset = Int64(chance(60) ? 0 : int(9) - 4)
        let start = (ReferenceModel.floorDiv(clock, period) + offset) &* period
        return e.generator.eid(at: UInt32(truncatingIfNeeded: start))
    }

    package mutating func sighting(at t: Int64) -> Sighting {
        if chance(45) {
            let registeredTokens = scenario.publications.flatMap { $0.tokens.map(\.token) }
            let token = !registeredTokens.isEmpty && chance(70) ? pick(registeredTokens) : pick(Self.tokens)
            return Sighting(
                timeMicros: t, medium: chance(70) ? .ble : .audio, identity: SightingIdentity(.token, token))
        }
        if chance(20) && scenario.beacons.contains(where: { $0.ephemeralID != nil }) || chance(3) {
            return Sighting(timeMicros: t, medium: .ble, identity: SightingIdentity(.eddystoneEID, eid(at: t)))
        }
        return Sighting(timeMicros: t, medium: .ble, identity: pick(Self.beaconIDs))
    }

    /// A scenario: about a third actions, the rest sightings; often several at one instant, and
    /// on the 100 ms grid the timeouts and TTLs fall on (ENGINE-O2); now and then a jump of
    /// hours, and an `end`. `capturePercent` of the BLE sightings are marked for a capture file.
    package mutating func make(capturePercent: Int = 0) -> ModelScenario {
        setup()
        var t: Int64 = 0
        let hours = chance(25)
        for _ in 0..<(20 + int(100)) {
            switch int(100) {
            case 0..<30: break
            case 30..<80: t += seconds(20)
            case 80..<89: t += seconds(150)
            case 89..<91 where hours: t += Int64(int(90_000)) * 1_000_000 + seconds(10)
            default: t += Int64(1 + int(999_999))
            }
            if !fileSafe && chance(1) {
                // Earlier than the engine's time: refused (ENGINE-O1).
                scenario.inputs.append(.action(max(0, t - 1), action()))
                continue
            }
            if chance(35) {
                scenario.inputs.append(.action(t, action()))
            } else {
                let s = sighting(at: t)
                scenario.inputs.append(.sighting(s, capture: s.medium == .ble && chance(capturePercent)))
            }
        }
        if chance(25) { scenario.end = t + pick([0, 1, seconds(200), 30_000_000]) }
        return scenario
    }
}
