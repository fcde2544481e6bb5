import NearbyMessages
import NearbySynthesis
import NearbyTestSupport
import Testing

/// Long seeded random runs checked against invariants computed by a simple independent model
/// from the inputs alone (not from the engine's internals).
@Suite struct EngineInvariantTests {
    static let tokens: [[UInt8]] = (0..<6).map { [UInt8](repeating: UInt8(0x10 * ($0 + 1)), count: 6) }
    static let uids: [[UInt8]] = (0..<3).map { i in (0..<16).map { UInt8(i * 16 + $0) } }
    static let iBeacons: [[UInt8]] = (0..<2).map { i in (0..<20).map { UInt8(0x80 + i * 20 + $0) } }

    static func message(_ type: String, _ text: String, ns: String = "") -> Message {
        Message(namespace: ns, type: type, content: Array(text.utf8))
    }

    /// Publications share messages (rotation: tokens 0 and 1 stand for "a" in turn), one token
    /// is audio-only, and two beacons share an attachment.
    static let registry = Registry(
        publications: [
            .init(
                id: "a1", message: message("t", "a"),
                tokens: [
                    .init(token: tokens[0], untilMicros: 60_000_000),
                    .init(token: tokens[1], fromMicros: 60_000_000),
                ]),
            .init(id: "b", message: message("t", "b"), tokens: [.init(token: tokens[2])]),
            .init(id: "c", message: message("u", "c"), tokens: [.init(token: tokens[3], mediums: .audio)]),
            .init(id: "a2", message: message("t", "a"), tokens: [.init(token: tokens[4])]),
            .init(
                id: "d", message: message("t", "d"), fromMicros: 30_000_000, untilMicros: 90_000_000,
                tokens: [.init(token: tokens[5])]),
        ],
        beacons: [
            .init(
                advertisedID: SightingIdentity(.eddystoneUID, uids[0]),
                attachments: [message("door", "x", ns: "p"), message("t", "b")]),
            .init(advertisedID: SightingIdentity(.eddystoneUID, uids[1]), attachments: [message("door", "x", ns: "p")]),
            .init(advertisedID: SightingIdentity(.iBeacon, iBeacons[0]), attachments: [message("door", "y", ns: "p")]),
        ])

    enum Input {
        case action(Int64, EngineAction)
        case sighting(Sighting)
        case advance(Int64)
    }

    static func randomInputs(seed: UInt64, count: Int) -> [Input] {
        var rng = SeededGenerator(seed: seed)
        var t: Int64 = 0
        var live: [String] = []
        var next = 0
        var out: [Input] = []
        let filters: [(DeviceTypes, String, String)] = [
            (.nearbyDevices, "", "t"), (.nearbyDevices, "", "u"), (.bleBeacons, "p", "door"), (.bleBeacons, "", "t"),
            ([.nearbyDevices, .bleBeacons], "", "t"),
            (.bleBeacons, Message.reservedNamespace, Message.eddystoneUIDType),
            (.bleBeacons, Message.reservedNamespace, Message.iBeaconIDType),
        ]
        for _ in 0..<count {
            if !rng.chance(15) { t += Int64(rng.below(4_000_000)) }
            let r = rng.below(100)
            if r < 8 || live.isEmpty {
                let (types, ns, type) = filters[rng.below(filters.count)]
                let mediums: [DiscoveryMediums] = [.default, .ble, .audio]
                let ttl: TimeToLive = rng.chance(30) ? .infinite : .micros(Int64(1 + rng.below(120)) * 1_000_000)
                var p = SubscriptionParams(
                    deviceTypes: types, messageNamespace: ns, type: type,
                    strategy: Strategy(
                        mediums: mediums[rng.below(3)], mode: rng.chance(90) ? .default : .broadcast,
                        allowInBackground: rng.chance(50), ttl: ttl))
                p.beaconStrategy = BeaconStrategy(includeIBeacons: rng.chance(70), allowInBackground: rng.chance(50))
                let id = "s\(next)"
                next += 1
                live.append(id)
                out.append(.action(t, .subscribe(id: id, p)))
            } else if r < 11 {
                let id = live.remove(at: rng.below(live.count))
                out.append(.action(t, .unsubscribe(id: id)))
            } else if r < 20 {
                let perm: [PermissionState] = [.granted, .granted, .denied, .notDetermined]
                var c = StateChange()
                switch rng.below(6) {
                case 0: c.nearbyPermission = perm[rng.below(4)]
                case 1: c.bluetoothPowerOn = rng.chance(60)
                case 2: c.bluetoothPermission = perm[rng.below(4)]
                case 3: c.microphonePermission = perm[rng.below(4)]
                case 4: c.locationPermission = LocationPermission.allCases[rng.below(4)]
                default: c.appState = rng.chance(60) ? .foreground : .background
                }
                out.append(.action(t, .changeState(c)))
            } else if r < 21 && rng.chance(20) {
                out.append(.action(t, .stopNearby))
                live.removeAll()
            } else if r < 24 {
                out.append(.advance(t))
            } else {
                let identity: SightingIdentity
                var medium = Medium.ble
                switch rng.below(10) {
                case 0..<6:
                    identity = SightingIdentity(.token, tokens[rng.below(tokens.count)])
                    if rng.chance(30) { medium = .audio }
                case 6..<8: identity = SightingIdentity(.eddystoneUID, uids[rng.below(uids.count)])
                default: identity = SightingIdentity(.iBeacon, iBeacons[rng.below(iBeacons.count)])
                }
                out.append(.sighting(Sighting(timeMicros: t, medium: medium, identity: identity)))
            }
        }
        return out
    }

    /// Runs the inputs; returns the events and, for each unsubscribe, the number of events
    /// emitted before it (after the timers due up to its time, which may still concern it).
    static func run(_ inputs: [Input], timeout: Int64) -> (events: [EngineEvent], released: [String: Int]) {
        var engine = SubscriptionEngine(registry: registry, configuration: .init(lostTimeoutMicros: timeout))
        var events: [EngineEvent] = []
        var released: [String: Int] = [:]
        for input in inputs {
            switch input {
            case .action(let t, let a):
                if case .unsubscribe(let id) = a {
                    try! engine.advance(to: t, into: &events)
                    released[id] = events.count
                }
                try! engine.perform(a, at: t, into: &events)
            case .sighting(let s): try! engine.sight(s, into: &events)
            case .advance(let t): try! engine.advance(to: t, into: &events)
            }
        }
        engine.finish(into: &events)
        #expect(engine.foundCount == 0)
        return (events, released)
    }

    /// What a sighting can stand for, from the registry and the reserved types alone.
    static func candidates(_ s: Sighting) -> Set<Message> {
        var out = Set(registry.resolve(s))
        switch s.identity.kind {
        case .eddystoneUID:
            out.insert(
                Message(namespace: Message.reservedNamespace, type: Message.eddystoneUIDType, content: s.identity.bytes)
            )
        case .iBeacon:
            out.insert(
                Message(namespace: Message.reservedNamespace, type: Message.iBeaconIDType, content: s.identity.bytes))
        default: break
        }
        return out
    }

    @Test(arguments: 0..<40)
    func randomRunsKeepTheInvariants(seed: Int) {
        let timeout: Int64 = [10_000_000, 2_500_000, 15_000_000][seed % 3]
        let inputs = Self.randomInputs(seed: UInt64(seed) &* 0x1234_5678_9ABC_DEF1 &+ 7, count: 3000)
        let (events, released) = Self.run(inputs, timeout: timeout)
        #expect(events.count > 20, "a run must exercise the engine")

        var sightingsAt: [Int64: Set<Message>] = [:]
        var stateInstants: Set<Int64> = []
        var expiries: [String: Int64] = [:]
        for input in inputs {
            switch input {
            case .sighting(let s): sightingsAt[s.timeMicros, default: []].formUnion(Self.candidates(s))
            case .action(let t, .changeState), .action(let t, .stopNearby): stateInstants.insert(t)
            case .action(let t, .subscribe(let id, let p)):
                if case .micros(let ttl) = p.strategy.ttl { expiries[id] = t + ttl }
            default: break
            }
        }

        var found: Set<String> = []
        var ended: Set<String> = []
        var lastTime = Int64.min
        for (i, e) in events.enumerated() {
            #expect(e.timeMicros >= lastTime, "event \(i) goes back in time")
            lastTime = e.timeMicros
            if let sub = e.subscription {
                #expect(!ended.contains(sub), "event \(i) \(e.kind) after \(sub) expired")
                if let r = released[sub] { #expect(i < r, "event \(i) \(e.kind) after \(sub) was released") }
            }
            guard let sub = e.subscription, let m = e.message else {
                if e.kind == .subscriptionExpired, let sub = e.subscription { ended.insert(sub) }
                continue
            }
            let key = sub + "|" + m.namespace + "|" + m.type + "|" + m.content.map(String.init).joined(separator: ",")
            switch e.kind {
            case .found:
                #expect(found.insert(key).inserted, "found twice without lost: \(key)")
                #expect(
                    sightingsAt[e.timeMicros]?.contains(m) == true,
                    "found at \(e.timeMicros) without a sighting of \(key)")
            case .lost:
                #expect(found.remove(key) != nil, "lost without found: \(key)")
                let byTimeout = sightingsAt[e.timeMicros - timeout]?.contains(m) == true
                let byState = stateInstants.contains(e.timeMicros) || expiries[sub] == e.timeMicros
                #expect(
                    byTimeout || byState,
                    "lost \(key) at \(e.timeMicros): neither lastSeen + timeout nor a state change")
            default:
                Issue.record("unexpected \(e.kind) with a message")
            }
        }
        let open = found.filter { key in released[String(key.prefix { $0 != "|" })] == nil }
        #expect(open.isEmpty, "every found ends with a lost after finish, unless released")
        let again = Self.run(inputs, timeout: timeout)
        #expect(again.events == events, "the same inputs give the same events")
    }
}
