import Foundation
import NearbyBytes
import NearbyMessages
import NearbySynthesis
import NearbyTestSupport
import Testing

/// `SubscriptionEngine` against `ReferenceModel` (a plain engine written from
/// docs/spec/engine.md alone) on seeded random scenarios: every app action, state field,
/// strategy and beacon-strategy option, the consent dialog, terminate and launch, id reuse,
/// low-power scan settings, canonically equivalent strings, namespace "" and reserved-namespace
/// registry messages. Both must refuse the same inputs and emit the same events, byte for byte.
///
/// `swift test` runs 3,000 scenarios. More, in a release build:
/// `NEARBY_MODEL_SCENARIOS=100000 swift test -c release --filter EngineModelTests`
/// (`NEARBY_MODEL_SEED` sets the first seed; a failure names the seed that reproduces it).
struct EngineModelTests {
    @Test func theEngineAndThePlainModelAgreeOnRandomScenarios() {
        let env = ProcessInfo.processInfo.environment
        let count = env["NEARBY_MODEL_SCENARIOS"].flatMap(UInt64.init) ?? 3_000
        let first = env["NEARBY_MODEL_SEED"].flatMap(UInt64.init) ?? 1
        var tally = Tally()
        for seed in first..<(first + count) {
            guard let failure = Self.compare(seed: seed, tally: &tally) else { continue }
            Issue.record(Comment(rawValue: failure))
            return
        }
        // The generator must reach every corner it claims to; a generator that stopped
        // producing dialogs or founds would make agreement meaningless.
        if count >= 500 {
            for kind in EngineEvent.Kind.allCases {
                #expect(tally.events[kind, default: 0] > 0, "no \(kind.rawValue) event in \(count) scenarios")
            }
            #expect(tally.refused > 0 && tally.reservedMerged > 0 && tally.lowPowerMissed > 0)
        }
        print(
            "EngineModelTests: "
                + tally.events.sorted { $0.key.rank < $1.key.rank }
                .map { "\($0.key.rawValue) \($0.value)" }.joined(separator: ", ")
                + "; merged \(tally.reservedMerged), lowPowerMissed \(tally.lowPowerMissed)"
        )
        print(
            "EngineModelTests: \(count) scenarios from seed \(first), \(tally.inputs) inputs, "
                + "\(tally.events.values.reduce(0, +)) events, \(tally.refused) refused inputs; the engines agree"
        )
    }

    struct Tally {
        var events: [EngineEvent.Kind: Int] = [:]
        var inputs = 0
        var refused = 0
        /// Found events of a reserved message that a registry message equals (ENGINE-R4).
        var reservedMerged = 0
        /// Beacon sightings the model says fall outside every low-power window (ENGINE-A6).
        var lowPowerMissed = 0
    }

    /// Runs scenario `seed` through both; nil when they agree, else what differs.
    static func compare(seed: UInt64, tally: inout Tally) -> String? {
        var g = ScenarioGenerator(seed: seed)
        let (registry, state, configuration) = g.setup()
        var engine = SubscriptionEngine(registry: registry, initialState: state, configuration: configuration)
        var model = ReferenceModel(registry: registry, state: state, configuration: configuration)
        var got: [EngineEvent] = []
        var log: [String] = []
        for input in g.inputs() {
            tally.inputs += 1
            switch input {
            case .action(let t, let action):
                log.append("\(t) \(action)")
                let expected = model.perform(action, at: t)
                var refusedBy: ReferenceModel.Refusal?
                do {
                    try engine.perform(action, at: t, into: &got)
                } catch {
                    refusedBy = Self.refusal(error.code)
                }
                if expected != refusedBy {
                    return
                        "seed \(seed): \(action) at \(t): model \(String(describing: expected)), engine "
                        + "\(String(describing: refusedBy))\n"
                        + log.joined(separator: "\n")
                }
                if expected != nil {
                    // A refused input leaves the engine as it was; the model has fired the
                    // timers due by then, which the engine's next input would fire: keep
                    // them in step so that a refusal at the end changes nothing.
                    tally.refused += 1
                    if expected != .timeOrder { try? engine.advance(to: t, into: &got) }
                }
            case .sighting(let s):
                log.append("\(s.timeMicros) sight \(s.identity.kind) \(Hex.encode(s.identity.bytes)) \(s.medium)")
                if s.source == .beacon, let sub = model.subscriptions.last,
                    (s.timeMicros - sub.createdAt) % configuration.lowPowerScan.intervalMicros
                        >= configuration.lowPowerScan.windowMicros
                {
                    tally.lowPowerMissed += 1
                }
                model.sight(s)
                do { try engine.sight(s, into: &got) } catch { return "seed \(seed): sighting refused: \(error)" }
            }
        }
        model.finish()
        engine.finish(into: &got)
        let a = got.map(Self.render), b = model.events.map(Self.render)
        for e in got {
            tally.events[e.kind, default: 0] += 1
            if e.kind == .found, let m = e.message, m.namespace == Message.reservedNamespace,
                registry.publications.contains(where: { $0.message == m })
                    || registry.beacons.contains(where: { $0.attachments.contains(m) })
            {
                tally.reservedMerged += 1
            }
        }
        guard a != b else { return nil }
        let i = (0..<min(a.count, b.count)).first { a[$0] != b[$0] } ?? min(a.count, b.count)
        return
            "seed \(seed): event #\(i) differs\n  engine: \(i < a.count ? a[i] : "(none)")\n  model:  "
            + "\(i < b.count ? b[i] : "(none)")\ninputs:\n"
            + log.joined(separator: "\n")
    }

    static func refusal(_ code: EngineInputError.Code) -> ReferenceModel.Refusal? {
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

    /// Strings as their UTF-8 bytes in hex, so that canonically equivalent ones differ.
    static func render(_ e: EngineEvent) -> String {
        render(
            .init(
                time: e.timeMicros, kind: e.kind, id: e.subscription ?? e.publication, message: e.message,
                value: e.value))
    }

    static func render(_ e: ReferenceModel.Event) -> String {
        var s = "\(e.time) \(e.kind.rawValue)"
        if let id = e.id { s += " " + Hex.encode(Array(id.utf8)) }
        if let m = e.message {
            s += " \(Hex.encode(Array(m.namespace.utf8)))/\(Hex.encode(Array(m.type.utf8)))/\(Hex.encode(m.content))"
        }
        if let v = e.value { s += " \(v)" }
        return s
    }
}

/// Random scenarios for `EngineModelTests`, from a seed, over small vocabularies
/// so that ids, messages, tokens and beacons collide often.
struct ScenarioGenerator {
    enum Input {
        case action(Int64, EngineAction)
        case sighting(Sighting)
    }

    var rng: SeededGenerator
    /// The registry's messages, which subscriptions are made to select more often than not.
    var registered: [Message] = []

    init(seed: UInt64) { rng = SeededGenerator(seed: seed &* 0x9E37_79B9_7F4A_7C15) }

    mutating func int(_ n: Int) -> Int { rng.below(n) }
    mutating func chance(_ percent: Int) -> Bool { rng.chance(percent) }
    mutating func pick<T>(_ items: [T]) -> T { items[int(items.count)] }

    // "café" precomposed and decomposed are different messages (ENGINE-R4).
    static let namespaces = ["", "proj", "other", "caf\u{E9}", "cafe\u{301}", Message.reservedNamespace]
    static let types = [
        "", "chat", "door", "caf\u{E9}", "cafe\u{301}", Message.eddystoneUIDType, Message.iBeaconIDType,
    ]
    static let contents: [[UInt8]] = [[], [1], [2], Array("hello".utf8)]
    static let ids = ["s1", "s2", "caf\u{E9}", "cafe\u{301}"]
    static let tokens: [[UInt8]] = [
        [0xA1, 1, 1, 1, 1, 1], [0xA2, 2, 2, 2, 2, 2], [0xA3, 3, 3, 3, 3, 3, 3, 3], [0xA4, 4, 4, 4, 4, 4],
    ]
    static let beaconIDs: [SightingIdentity] = [
        SightingIdentity(.eddystoneUID, Array(0x10..<0x20)), SightingIdentity(.eddystoneUID, Array(0x20..<0x30)),
        SightingIdentity(.iBeacon, Array(0x30..<0x44)), SightingIdentity(.iBeacon, Array(0x50..<0x64)),
        SightingIdentity(.altBeacon, Array(0x70..<0x84)),
    ]

    mutating func message() -> Message {
        Message(namespace: pick(Self.namespaces), type: pick(Self.types), content: pick(Self.contents))
    }

    /// A message equal to a beacon's reserved message (ENGINE-R2), as a registry might hold it (ENGINE-R4).
    mutating func reservedMessage() -> Message {
        let b = pick(Array(Self.beaconIDs.prefix(4)))
        return Message(
            namespace: Message.reservedNamespace,
            type: b.kind == .eddystoneUID ? Message.eddystoneUIDType : Message.iBeaconIDType, content: b.bytes)
    }

    mutating func seconds(_ maxTenths: Int) -> Int64 { Int64(int(maxTenths) + 1) * 100_000 }

    mutating func interval() -> (Int64?, Int64?) {
        let from: Int64? = chance(30) ? seconds(200) : nil
        let until: Int64? = chance(30) ? (from ?? 0) + seconds(300) : nil
        return (from, until)
    }

    mutating func mediums() -> DiscoveryMediums { pick([.ble, .audio, .default]) }

    mutating func setup() -> (Registry, DeviceState, SubscriptionEngine.Configuration) {
        var publications: [Registry.Publication] = []
        for i in 0..<int(5) {
            let (from, until) = interval()
            var assignments: [Registry.TokenAssignment] = []
            for _ in 0..<(1 + int(2)) {
                let (f, u) = interval()
                assignments.append(.init(token: pick(Self.tokens), mediums: mediums(), fromMicros: f, untilMicros: u))
            }
            publications.append(
                .init(
                    id: "p\(i)", message: chance(10) ? reservedMessage() : message(),
                    fromMicros: from, untilMicros: until, tokens: assignments))
        }
        var beacons: [Registry.Beacon] = []
        for id in Self.beaconIDs where chance(60) {
            var attachments: [Message] = []
            for _ in 0..<int(4) { attachments.append(chance(15) ? reservedMessage() : message()) }
            beacons.append(.init(advertisedID: id, attachments: attachments))
        }
        var state = DeviceState()
        if chance(40) { state.apply(stateChange()) }
        var configuration = SubscriptionEngine.Configuration(
            lostTimeoutMicros: pick([1_000_000, 3_000_000, 10_000_000]),
            projectNamespace: pick(["", "proj", "caf\u{E9}"]))
        if chance(50) {
            let interval = seconds(40)
            // On the inputs' 100 ms grid, so that sightings fall on a window's edges (ENGINE-A6).
            configuration.lowPowerScan = LowPowerScan(
                windowMicros: seconds(Int(interval / 100_000)), intervalMicros: interval)
        }
        registered = publications.map(\.message) + beacons.flatMap(\.attachments)
        return (Registry(publications: publications, beacons: beacons), state, configuration)
    }

    mutating func stateChange() -> StateChange {
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

    mutating func strategy(infinite: Bool) -> Strategy {
        let ttl: TimeToLive =
            switch int(6) {
            case 0: infinite ? .infinite : .micros(0)
            case 1: .micros(seconds(300))
            case 2: .micros(0)  // refused (ENGINE-V1)
            default: .default
            }
        return Strategy(
            mediums: mediums(), mode: pick([.scan, .broadcast, .default]), allowInBackground: chance(40), ttl: ttl)
    }

    mutating func action() -> EngineAction {
        switch int(100) {
        case 0..<30:
            let types: DeviceTypes = pick([.nearbyDevices, .bleBeacons, [.nearbyDevices, .bleBeacons]])
            let target = registered.isEmpty || chance(25) ? message() : pick(registered)
            return .subscribe(
                id: pick(Self.ids),
                SubscriptionParams(
                    deviceTypes: types, messageNamespace: chance(20) ? "" : target.namespace,
                    type: chance(40) ? "" : target.type,
                    strategy: strategy(infinite: true),
                    beaconStrategy: BeaconStrategy(
                        includeIBeacons: chance(60), lowPowerPreferred: chance(60), allowInBackground: chance(40)),
                    permissionRequestHandler: chance(30)))
        case 30..<36: return .unsubscribe(id: pick(Self.ids))
        case 36..<44:
            return .publish(
                id: pick(Self.ids),
                PublicationParams(
                    message: message(), strategy: strategy(infinite: chance(10)),
                    permissionRequestHandler: chance(30)))
        case 44..<48: return .unpublish(id: pick(Self.ids))
        case 48..<80: return .changeState(stateChange())
        case 80..<82: return .stopNearby
        case 82..<92: return .answerPermission(granted: chance(70))
        case 92..<95: return .terminate
        default: return .launch
        }
    }

    mutating func sighting(at t: Int64) -> Sighting {
        if chance(50) {
            return Sighting(
                timeMicros: t, medium: chance(70) ? .ble : .audio, identity: SightingIdentity(.token, pick(Self.tokens))
            )
        }
        return Sighting(timeMicros: t, medium: .ble, identity: pick(Self.beaconIDs))
    }

    /// Time-ordered inputs: about a third actions, the rest sightings; often several at one
    /// instant, and on the 100 ms grid the timeouts and TTLs fall on (ENGINE-O2).
    mutating func inputs() -> [Input] {
        var t: Int64 = 0
        var out: [Input] = []
        for _ in 0..<(20 + int(100)) {
            switch int(10) {
            case 0..<3: break
            case 3..<8: t += seconds(20)
            case 8: t += seconds(150)
            default: t += Int64(1 + int(999_999))
            }
            out.append(chance(35) ? .action(t, action()) : .sighting(sighting(at: t)))
        }
        return out
    }
}
