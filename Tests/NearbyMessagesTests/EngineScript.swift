import NearbyBytes
import NearbyMessages

/// A small driver for rule tests: inputs at times in seconds, events rendered as compact
/// lines written by hand in the tests: `"12.5 lost s1 /chat:hello"`,
/// `"0 bluetoothPowerError hasError"`, `"300 subscriptionExpired s1"`, `"0 permissionRequest s1 nearby"`.
struct EngineScript {
    var engine: SubscriptionEngine
    var lines: [String] = []

    static let tokenA: [UInt8] = [0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA]
    static let tokenA2: [UInt8] = [0xA2, 0xA2, 0xA2, 0xA2, 0xA2, 0xA2]
    static let tokenB: [UInt8] = [0xBB, 0xBB, 0xBB, 0xBB, 0xBB, 0xBB]
    static let tokenAudioOnly: [UInt8] = [0xCC, 0xCC, 0xCC, 0xCC, 0xCC, 0xCC]
    static let uid: [UInt8] = Array(0x10..<0x20)
    static let iBeaconID: [UInt8] = Array(0x30..<0x44)

    static func text(_ ns: String, _ type: String, _ content: String) -> Message {
        Message(namespace: ns, type: type, content: Array(content.utf8))
    }

    /// hello: tokenA (0–100 s) then tokenA2 (100 s on); world: tokenB; audio-only: tokenAudioOnly
    /// over audio; beacons: the UID carries proj/door:front, the iBeacon proj/door:back.
    static let registry = Registry(
        publications: [
            .init(
                id: "hello", message: text("", "chat", "hello"),
                tokens: [
                    .init(token: tokenA, untilMicros: 100_000_000),
                    .init(token: tokenA2, fromMicros: 100_000_000),
                ]),
            .init(id: "world", message: text("", "chat", "world"), tokens: [.init(token: tokenB)]),
            .init(
                id: "quiet", message: text("", "chat", "quiet"), tokens: [.init(token: tokenAudioOnly, mediums: .audio)]
            ),
            .init(
                id: "late", message: text("", "chat", "late"), fromMicros: 50_000_000, untilMicros: 60_000_000,
                tokens: [.init(token: [1, 2, 3, 4, 5, 6])]),
        ],
        beacons: [
            .init(advertisedID: SightingIdentity(.eddystoneUID, uid), attachments: [text("proj", "door", "front")]),
            .init(advertisedID: SightingIdentity(.iBeacon, iBeaconID), attachments: [text("proj", "door", "back")]),
        ])

    init(
        state: DeviceState = DeviceState(), lostTimeout: Double = 10, projectNamespace: String = "",
        lowPowerScan: LowPowerScan = LowPowerScan(), registry: Registry = Self.registry
    ) {
        engine = SubscriptionEngine(
            registry: registry, initialState: state,
            configuration: .init(
                lostTimeoutMicros: Self.micros(lostTimeout), projectNamespace: projectNamespace,
                lowPowerScan: lowPowerScan))
    }

    static func micros(_ seconds: Double) -> Int64 { Int64((seconds * 1_000_000).rounded()) }

    static func render(_ e: EngineEvent) -> String {
        var s =
            "\(Double(e.timeMicros) / 1_000_000)".replacingOccurrences(of: ".0", with: "", onlyAtEnd: true) + " "
            + e.kind.rawValue
        if let id = e.subscription ?? e.publication { s += " " + id }
        if let m = e.message {
            s += " \(m.namespace)/\(m.type):" + (String(validating: m.content, as: UTF8.self) ?? Hex.encode(m.content))
        }
        if let v = e.value {
            switch e.kind {
            case .permissionChanged: s += v ? " granted" : " denied"
            case .permissionRequest: s += v ? " custom" : " nearby"
            default: s += v ? " hasError" : " clear"
            }
        }
        return s
    }

    mutating func at(_ t: Double, _ action: EngineAction) {
        var events: [EngineEvent] = []
        try! engine.perform(action, at: Self.micros(t), into: &events)
        lines += events.map(Self.render)
    }

    mutating func subscribe(_ t: Double, _ id: String, _ params: SubscriptionParams = SubscriptionParams(type: "chat"))
    {
        at(t, .subscribe(id: id, params))
    }

    mutating func state(_ t: Double, _ change: StateChange) { at(t, .changeState(change)) }

    mutating func see(_ t: Double, _ kind: SightingIdentity.Kind, _ bytes: [UInt8], medium: Medium = .ble) {
        var events: [EngineEvent] = []
        try! engine.sight(
            Sighting(timeMicros: Self.micros(t), medium: medium, identity: SightingIdentity(kind, bytes)), into: &events
        )
        lines += events.map(Self.render)
    }

    mutating func token(_ t: Double, _ token: [UInt8] = tokenA, medium: Medium = .ble) {
        see(t, .token, token, medium: medium)
    }

    mutating func advance(_ t: Double) {
        var events: [EngineEvent] = []
        try! engine.advance(to: Self.micros(t), into: &events)
        lines += events.map(Self.render)
    }

    mutating func finish() {
        var events: [EngineEvent] = []
        engine.finish(into: &events)
        lines += events.map(Self.render)
    }
}

extension String {
    func replacingOccurrences(of suffix: String, with replacement: String, onlyAtEnd: Bool) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) + replacement : self
    }
}
