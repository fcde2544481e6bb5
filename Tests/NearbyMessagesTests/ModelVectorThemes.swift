import NearbyMessages
import NearbyModelSupport
import NearbySecurity

/// The hand-picked half of the model vectors: for each rule of docs/spec/engine.md, scenarios
/// that show its clause and its boundaries, over one small registry (pruned, per vector, to the
/// entries its events need). The expected events are the model's; the refusals of ENGINE-V1
/// and ENGINE-O1 are written by hand (path and phrase) and checked against the product's reader.
extension ModelVectorTests {
    typealias Input = ModelScenario.Input

    static func us(_ s: Double) -> Int64 { Int64((s * 1_000_000).rounded()) }
    static func text(_ ns: String, _ type: String, _ content: String) -> Message {
        Message(namespace: ns, type: type, content: Array(content.utf8))
    }

    static let tokA: [UInt8] = [0xA1, 0xA1, 0xA1, 0xA1, 0xA1, 0xA1]
    static let tokA2: [UInt8] = [0xA2, 0xA2, 0xA2, 0xA2, 0xA2, 0xA2]
    static let tokB: [UInt8] = [0xB1, 0xB1, 0xB1, 0xB1, 0xB1, 0xB1]
    static let tokC: [UInt8] = [0xC1, 0xC1, 0xC1, 0xC1, 0xC1, 0xC1]
    static let tokD: [UInt8] = [0xD1, 0xD1, 0xD1, 0xD1, 0xD1, 0xD1]
    static let uid: [UInt8] = Array(0x10..<0x20)
    static let iBeaconID: [UInt8] = Array(0x30..<0x44)
    static let altID: [UInt8] = Array(0x70..<0x84)
    static let eidKey: [UInt8] = Array(0x00..<0x10)
    static let hello = text("", "chat", "hello"), world = text("", "chat", "world")
    static let tune = text("", "chat", "tune"), late = text("", "chat", "late")
    static let front = text("proj", "door", "front"), back = text("proj", "door", "back")
    static let side = text("proj", "door", "side"), desk = text("proj", "door", "desk")

    /// An EID beacon with the key above, K = 4 (16 s periods), clock `clock` at `at`.
    static func eidBeacon(
        clock: UInt32 = 0, at: EphemeralIDRegistration.Time = .scenarioMicros(0), key: [UInt8] = eidKey, k: Int = 4,
        _ attachments: [Message] = [desk]
    ) -> Registry.Beacon {
        Registry.Beacon(
            ephemeralID: try! EphemeralIDRegistration(
                identityKey: key, rotationExponent: k, initialClockValue: clock, registeredAt: at),
            attachments: attachments)
    }

    /// The EID the beacon above (clock 0 at 0) sends in the period of scenario time `t`, `offset` periods off.
    static func eid(_ t: Double, offset: Int64 = 0, clock: UInt32 = 0, key: [UInt8] = eidKey, k: Int = 4) -> [UInt8] {
        let period = (Int64(clock) + Int64(t.rounded(.down))) / (1 << k) + offset
        return try! EIDGenerator(identityKey: key, exponent: k).eid(at: UInt32(truncatingIfNeeded: period << k))
    }

    /// The EID of period `period` (of 2^k s) of the beacon above.
    static func eid(period: Int64, k: Int = 4) -> [UInt8] {
        try! EIDGenerator(identityKey: eidKey, exponent: k).eid(at: UInt32(truncatingIfNeeded: period << k))
    }

    /// hello: tokA until 100 s, then tokA2; world: tokB over BLE only; tune: tokC over audio
    /// only; late: tokD, publication from 50 to 60 s; the UID beacon carries front, the iBeacon
    /// back, the AltBeacon side, the EID beacon desk (all proj/door).
    static func base() -> ModelScenario {
        var s = ModelScenario()
        s.publications = [
            .init(
                id: "hello", message: hello,
                tokens: [.init(token: tokA, untilMicros: us(100)), .init(token: tokA2, fromMicros: us(100))]),
            .init(id: "world", message: world, tokens: [.init(token: tokB, mediums: .ble)]),
            .init(id: "tune", message: tune, tokens: [.init(token: tokC, mediums: .audio)]),
            .init(id: "late", message: late, fromMicros: us(50), untilMicros: us(60), tokens: [.init(token: tokD)]),
        ]
        s.beacons = [
            .init(advertisedID: SightingIdentity(.eddystoneUID, uid), attachments: [front]),
            .init(advertisedID: SightingIdentity(.iBeacon, iBeaconID), attachments: [back]),
            .init(advertisedID: SightingIdentity(.altBeacon, altID), attachments: [side]),
            eidBeacon(),
        ]
        return s
    }

    // Inputs.
    static let chat = SubscriptionParams(type: "chat")
    static let doors = SubscriptionParams(deviceTypes: .bleBeacons, messageNamespace: "proj", type: "door")
    /// A beacon subscription scanning at low power (no iBeacon ranging): ENGINE-A6's duty cycle applies.
    static let lowPowerDoors = SubscriptionParams(
        deviceTypes: .bleBeacons, messageNamespace: "proj", type: "door",
        beaconStrategy: BeaconStrategy(includeIBeacons: false))

    static func sub(_ t: Double, _ id: String = "s1", _ p: SubscriptionParams = chat) -> Input {
        .action(us(t), .subscribe(id: id, p))
    }
    static func chatWith(_ change: (inout SubscriptionParams) -> Void) -> SubscriptionParams {
        var p = chat
        change(&p)
        return p
    }
    static func doorsWith(_ change: (inout SubscriptionParams) -> Void) -> SubscriptionParams {
        var p = doors
        change(&p)
        return p
    }
    static func pub(
        _ t: Double, _ id: String = "p1", ttl: Double? = nil, mediums: DiscoveryMediums = .default,
        mode: DiscoveryMode = .default, background: Bool = false, handler: Bool = false
    ) -> Input {
        .action(
            us(t),
            .publish(
                id: id,
                PublicationParams(
                    message: text("", "chat", "mine"),
                    strategy: Strategy(
                        mediums: mediums, mode: mode, allowInBackground: background,
                        ttl: ttl.map { .micros(us($0)) } ?? .default), permissionRequestHandler: handler)))
    }
    static func act(_ t: Double, _ a: EngineAction) -> Input { .action(us(t), a) }
    static func state(_ t: Double, _ c: StateChange) -> Input { .action(us(t), .changeState(c)) }
    static func tok(_ t: Double, _ token: [UInt8] = tokA, _ m: Medium = .ble) -> Input {
        .sighting(Sighting(timeMicros: us(t), medium: m, identity: SightingIdentity(.token, token)), capture: false)
    }
    static func see(_ t: Double, _ kind: SightingIdentity.Kind, _ bytes: [UInt8]) -> Input {
        .sighting(Sighting(timeMicros: us(t), medium: .ble, identity: SightingIdentity(kind, bytes)), capture: false)
    }
    static func ttl(_ seconds: Double) -> TimeToLive { .micros(us(seconds)) }

    static func theme(
        _ name: String, _ description: String, _ clauses: [String], _ flags: [String], _ inputs: [Input],
        end: Double? = nil, _ configure: (inout ModelScenario) -> Void = { _ in }
    ) -> Spec {
        var s = base()
        s.inputs = inputs
        s.end = end.map(us)
        configure(&s)
        return Spec(
            name: name, description: description, clauses: clauses.map { "ENGINE-" + $0 }, flags: flags,
            scenario: pruned(s))
    }

    static func refusal(
        _ name: String, _ description: String, _ clauses: [String], _ flags: [String], _ inputs: [Input],
        path: String, reason: String, _ configure: (inout ModelScenario) -> Void = { _ in }
    ) -> Spec {
        var s = ModelScenario()
        s.inputs = inputs
        configure(&s)
        return Spec(
            name: name, description: description, clauses: clauses.map { "ENGINE-" + $0 }, flags: flags, scenario: s,
            refused: (path, reason))
    }

    static func themes() -> [Spec] {
        order() + counting() + standing() + foundAndLost() + handlers() + lifecycle() + limits()
    }
}
