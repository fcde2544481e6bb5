import NearbyMessages
import NearbySystem

/// Engine throughput: sightings per second on one core, with `messages` registered beacons
/// and tokens and `subscriptions` subscriptions whose filters overlap. The baseline, measured
/// in the same run, is a loop that only resolves each sighting through the registry (a
/// dictionary lookup), so the ratio says what the found/lost bookkeeping costs on top.
struct EngineBenchmark {
    var messages = 500
    var subscriptions = 200
    var sightings = 2_000_000

    struct Figures {
        var sightingsPerSecond: Double
        var resolveOnlyPerSecond: Double
        var events: Int
    }

    func run() -> Figures {
        // Half tokens (rotating every 60 s), half Eddystone-UID beacons; 20 types.
        var publications: [Registry.Publication] = []
        var beacons: [Registry.Beacon] = []
        var identities: [SightingIdentity] = []
        for i in 0..<messages {
            let type = "type\(i % 20)"
            let message = Message(namespace: i % 2 == 0 ? "" : "proj", type: type, content: Array("message \(i)".utf8))
            let id = withUnsafeBytes(of: UInt64(i).bigEndian) { Array($0) }
            if i % 2 == 0 {
                let token = Array(id[2...])
                publications.append(.init(id: "p\(i)", message: message, tokens: [.init(token: token)]))
                identities.append(SightingIdentity(.token, token))
            } else {
                let uid = id + id
                beacons.append(.init(advertisedID: SightingIdentity(.eddystoneUID, uid), attachments: [message]))
                identities.append(SightingIdentity(.eddystoneUID, uid))
            }
        }
        let registry = Registry(publications: publications, beacons: beacons)
        var engine = SubscriptionEngine(registry: registry)
        var events: [EngineEvent] = []
        events.reserveCapacity(1 << 16)
        for s in 0..<subscriptions {
            let params = SubscriptionParams(
                deviceTypes: [.nearbyDevices, .bleBeacons], messageNamespace: s % 2 == 0 ? "" : "proj",
                type: "type\(s % 20)", strategy: Strategy(ttl: .infinite))
            try! engine.perform(.subscribe(id: "s\(s)", params), at: 0, into: &events)
        }
        // Sightings every 50 µs on average, identities drawn by a fixed LCG so that messages
        // come and go (each is seen about every 25 ms; a 1-in-8 subset drops out for 12 s
        // stretches so lost and found keep firing).
        var inputs: [Sighting] = []
        inputs.reserveCapacity(sightings)
        var x: UInt64 = 12345
        var t: Int64 = 1
        for _ in 0..<sightings {
            x = x &* 6364136223846793005 &+ 1442695040888963407
            t += Int64(x >> 58)  // 0…63 µs
            var index = Int((x >> 20) % UInt64(identities.count))
            if index % 8 == 0, (t / 12_000_000) % 2 == 1 { index += 1 }
            inputs.append(
                Sighting(timeMicros: t, medium: .ble, identity: identities[index % identities.count], rssiDBm: -60))
        }

        var resolved = 0
        let r0 = Self.now()
        for s in inputs { resolved &+= registry.resolve(s).count }
        let r1 = Self.now()
        precondition(resolved > 0)

        var total = 0
        let e0 = Self.now()
        for s in inputs {
            try! engine.sight(s, into: &events)
            if events.count > 60_000 {
                total += events.count
                events.removeAll(keepingCapacity: true)
            }
        }
        engine.finish(into: &events)
        let e1 = Self.now()
        total += events.count
        return Figures(
            sightingsPerSecond: Double(sightings) / (e1 - e0),
            resolveOnlyPerSecond: Double(sightings) / (r1 - r0), events: total)
    }

    static func now() -> Double {
        SystemClock.monotonicSeconds()
    }
}
