import NearbyBytes
import NearbyJSON
import NearbySynthesis

/// Builds scenarios whose callbacks follow from how they were built (docs/spec/engine.md):
/// subscriptions made at time 0 with everything granted, token and beacon sightings in runs,
/// and the expected found and lost events written from the runs — found at a run's first
/// sighting (ENGINE-F1), lost one lost timeout after its last (ENGINE-F2, a sighting exactly
/// that late coming after the loss: ENGINE-O2), for every subscription whose filter the
/// message passes (ENGINE-R3), in the order of ENGINE-O3. No two sightings share an instant,
/// so every batch holds the events of one input or of the timers alone.
struct ScenarioGenerator {
    var rng: SeededGenerator

    init(seed: UInt64) { rng = SeededGenerator(seed: seed) }

    struct Generated {
        var scenario: JSONValue
        var events: [JSONValue]
        var flags: [String]
        var clauses: [String]
        var what: String
    }

    /// A message and the identity that stands for it.
    struct Message {
        var type: String
        var content: [UInt8]
        /// Index into the identities.
        var identity: Int
    }

    enum Identity {
        case token([UInt8])
        case eddystoneUID([UInt8])
        case iBeacon([UInt8])

        var isBeacon: Bool {
            if case .token = self { return false }
            return true
        }
    }

    struct Subscription {
        var id: String
        var tokens: Bool
        var beacons: Bool
        /// Empty: every type of the project namespace.
        var type: String
    }

    mutating func int(_ range: Range<Int>) -> Int { range.lowerBound + Int(rng.upTo(Int64(range.count - 1))) }
    mutating func chance(_ p: Double) -> Bool { rng.unit() < p }
    mutating func bytes(_ n: Int) -> [UInt8] { (0..<n).map { _ in UInt8(truncatingIfNeeded: rng.next()) } }

    static let project = "proj"

    mutating func next() -> Generated {
        var flags: Set<String> = ["Filter"]
        let lostTimeouts: [Int64] = [1_000_000, 2_500_000, 10_000_000, 30_000_000]
        let lost = lostTimeouts[int(0..<lostTimeouts.count)]
        // Identities and the messages they stand for; every message has its own type.
        var identities: [Identity] = []
        var messages: [Message] = []
        for _ in 0..<int(1..<5) {
            switch int(0..<3) {
            case 0: identities.append(.token(bytes(chance(0.7) ? 6 : int(8..<17))))
            case 1: identities.append(.eddystoneUID(bytes(16)))
            default: identities.append(.iBeacon(bytes(20)))
            }
            let perIdentity = identities.last!.isBeacon ? int(1..<3) : 1
            for _ in 0..<perIdentity {
                messages.append(
                    Message(type: "t\(messages.count)", content: bytes(int(1..<9)), identity: identities.count - 1))
            }
        }
        // Subscriptions, each to tokens, beacons or both, for one type or all.
        var subscriptions: [Subscription] = []
        for k in 0..<int(1..<4) {
            let which = int(0..<3)
            let type = chance(0.5) ? messages[int(0..<messages.count)].type : ""
            subscriptions.append(Subscription(id: "s\(k)", tokens: which != 1, beacons: which != 0, type: type))
        }
        // The first subscription passes the first message, so every scenario has callbacks.
        let firstIsBeacon = identities[0].isBeacon
        subscriptions[0].type = chance(0.5) ? messages[0].type : ""
        if firstIsBeacon { subscriptions[0].beacons = true } else { subscriptions[0].tokens = true }
        // Sightings: runs per identity; no two sightings anywhere at one instant.
        var sightingsOf: [[Int64]] = Array(repeating: [], count: identities.count)
        var used: Set<Int64> = []
        for i in identities.indices {
            var t = 500_000 + rng.upTo(5_000_000)
            for run in 0..<int(1..<4) {
                if run > 0 {
                    let gap: Int64
                    if chance(0.3) {
                        gap = lost  // exactly the timeout: lost and found at once
                        flags.insert("TimeBoundary")
                    } else {
                        gap = lost + 1 + rng.upTo(2 * lost)
                    }
                    t += gap
                }
                for s in 0..<int(1..<6) {
                    if s > 0 {
                        if chance(0.15) {
                            t += lost - 1  // one microsecond short of the timeout: still found
                            flags.insert("TimeBoundary")
                        } else {
                            t += 1 + rng.upTo(lost - 2)
                        }
                    }
                    while used.contains(t) { t += 1 }
                    used.insert(t)
                    sightingsOf[i].append(t)
                }
            }
        }
        // The scenario.
        var publications: [JSONValue] = []
        var beacons: [JSONValue] = []
        for (i, identity) in identities.enumerated() {
            let mine = messages.filter { $0.identity == i }
            switch identity {
            case .token(let token):
                let m = mine[0]
                publications.append(
                    .object([
                        "id": .string("p\(i)"),
                        "message": .object([
                            "namespace": .string(Self.project), "type": .string(m.type),
                            "content": .string(Base64.encode(m.content)),
                        ]),
                        "tokens": .array([.object(["token": .string(Hex.encode(token))])]),
                    ]))
            case .eddystoneUID(let id), .iBeacon(let id):
                let type: String = if case .iBeacon = identity { "IBEACON" } else { "EDDYSTONE" }
                beacons.append(
                    .object([
                        "advertisedId": .object(["type": .string(type), "id": .string(Base64.encode(id))]),
                        "attachments": .array(
                            mine.map {
                                .object([
                                    "namespacedType": .string(Self.project + "/" + $0.type),
                                    "data": .string(Base64.encode($0.content)),
                                ])
                            }),
                    ]))
            }
        }
        var events: [JSONValue] = []
        for s in subscriptions {
            var o: [String: JSONValue] = [
                "id": .string(s.id), "strategy": .object(["ttlSeconds": .string("infinite")]),
                "deviceTypesToDiscover": .array(
                    (s.tokens ? [JSONValue.string("nearbyDevices")] : []) + (s.beacons ? [.string("bleBeacons")] : [])),
            ]
            if !s.type.isEmpty { o["type"] = .string(s.type) }
            if s.beacons { o["beaconStrategy"] = .object(["lowPowerPreferred": .bool(false)]) }
            events.append(.object(["time": .int(0), "subscribe": .object(o)]))
        }
        let sightings = identities.indices.flatMap { i in sightingsOf[i].map { (time: $0, identity: i) } }
            .sorted { $0.time < $1.time }
        for s in sightings {
            let sighting: JSONValue =
                switch identities[s.identity] {
                case .token(let t): .object(["token": .string(Hex.encode(t)), "medium": .string("ble")])
                case .eddystoneUID(let id): .object(["eddystoneUid": .string(Hex.encode(id))])
                case .iBeacon(let id): .object(["iBeacon": .string(Hex.encode(id))])
                }
            events.append(.object(["time": .seconds(micros: s.time), "sighting": sighting]))
        }
        var registry: [String: JSONValue] = ["registry": .int(1)]
        if !publications.isEmpty { registry["publications"] = .array(publications) }
        if !beacons.isEmpty { registry["beacons"] = .array(beacons) }
        let scenario = JSONValue.object([
            "scenario": .int(1), "lostTimeoutSeconds": .seconds(micros: lost),
            "projectNamespace": .string(Self.project),
            "timeOrigin": .object(["unixSeconds": .int(1_700_000_000)]), "registry": .object(registry),
            "events": .array(events),
        ])
        // The truth: per subscription and message it passes, found at each run's start and
        // lost one timeout after its end.
        var expected: [(time: Int64, lost: Bool, subscription: String, message: Message)] = []
        for s in subscriptions {
            for m in messages where s.type.isEmpty || s.type == m.type {
                guard identities[m.identity].isBeacon ? s.beacons : s.tokens else { continue }
                let times = sightingsOf[m.identity]
                expected.append((times[0], false, s.id, m))
                for (a, b) in zip(times, times.dropFirst()) where b - a >= lost {
                    expected.append((a + lost, true, s.id, m))
                    expected.append((b, false, s.id, m))
                }
                expected.append((times.last! + lost, true, s.id, m))
            }
        }
        expected.sort { a, b in
            if a.time != b.time { return a.time < b.time }
            if a.lost != b.lost { return a.lost }
            if a.subscription != b.subscription {
                return a.subscription.utf8.lexicographicallyPrecedes(b.subscription.utf8)
            }
            return a.message.type.utf8.lexicographicallyPrecedes(b.message.type.utf8)
        }
        let expectedEvents = expected.map { e -> JSONValue in
            .object([
                "time": .seconds(micros: e.time), "event": .string(e.lost ? "lost" : "found"),
                "subscription": .string(e.subscription),
                "message": .object([
                    "namespace": .string(Self.project), "type": .string(e.message.type),
                    "content": .string(Base64.encode(e.message.content)),
                ]),
            ])
        }
        return Generated(
            scenario: scenario, events: expectedEvents, flags: flags.sorted(),
            clauses: ["ENGINE-F1", "ENGINE-F2", "ENGINE-O2", "ENGINE-O3", "ENGINE-R1", "ENGINE-R2", "ENGINE-R3"],
            what: "\(identities.count) identities, \(messages.count) messages, \(subscriptions.count) subscriptions, "
                + "lost timeout \(JSONValue.seconds(micros: lost).serialized) s")
    }
}
