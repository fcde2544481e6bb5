import NearbyAudio
import NearbyBytes
import NearbyCapture
import NearbyFormats
import NearbyJSON
import NearbyMessages
import NearbySecurity

extension World {
    /// Reads a scenario's `world` object (docs/synthesis.md), strictly: unknown fields, wrong
    /// types and out-of-range values are errors with their JSON path.
    public init(json n: JSONNode) throws(JSONInputError) {
        let o = try n.object(allowed: ["seed", "duration", "scanner", "devices", "clutter", "audio"])
        let seed = UInt64(try o.required("seed").integer(in: 0...Int64.max))
        let duration = try o.required("duration").microseconds(in: 1...86_400_000_000)
        var scanner = Scanner()
        if let s = o.optional("scanner") { scanner = try Self.scanner(s) }
        var devices: [Device] = []
        var names: Set<String> = []
        for d in try o.required("devices").array() {
            let device = try Self.device(d, durationMicros: duration)
            guard names.insert(device.name).inserted else {
                throw d.fail("device name \"\(device.name)\" is used twice")
            }
            devices.append(device)
        }
        self.init(seed: seed, durationMicros: duration, scanner: scanner, devices: devices)
        if let c = o.optional("clutter") {
            let co = try c.object(allowed: ["devices", "interval"])
            let count = Int(try co.required("devices").integer(in: 0...1000))
            let interval = try co.optional("interval")?.microseconds(in: 20_000...10_240_000) ?? 200_000
            var g = SeededGenerator(seed: seed ^ 0x00C1_0773)
            for i in 0..<count { self.devices.append(Self.clutterDevice(i, interval: interval, generator: &g)) }
        }
        if let a = o.optional("audio") { audio = try Self.audio(a, names: names) }
    }

    static func audio(_ n: JSONNode, names: Set<String>) throws(JSONInputError) -> Audio {
        let o = try n.object(allowed: ["sampleRate", "noiseDbfs", "container", "broadcasters"])
        var audio = Audio()
        if let v = o.optional("sampleRate") { audio.sampleRate = Int(try v.integer(in: 44_100...96_000)) }
        if let v = o.optional("noiseDbfs") { audio.noiseDbfs = try v.number(in: -120 ... -20) }
        if let v = o.optional("container") {
            audio.container = Audio.Container(rawValue: try v.choice(["flac", "wav"]))!
        }
        var used = names
        for b in try o.required("broadcasters").array() {
            let bo = try b.object(allowed: ["name", "token", "mode", "levelDbfs", "from", "until"])
            let nameNode = try bo.required("name")
            let name = try nameNode.string()
            guard used.insert(name).inserted else { throw nameNode.fail("name \"\(name)\" is used twice") }
            let token = try ModelJSON.hex(try bo.required("token"), lengths: NUTFrameCoding.tokenLengths)
            let mode = AudioMode(rawValue: try bo.required("mode").choice(["inaudible", "audible"]))
            let level = try bo.required("levelDbfs").number(in: -130 ... -6)
            let from = try bo.optional("from").map { (f) throws(JSONInputError) in try ModelJSON.time(f) } ?? 0
            let untilNode = bo.optional("until")
            let until = try untilNode.map { (f) throws(JSONInputError) in try ModelJSON.time(f) }
            if let until, let untilNode, until <= from { throw untilNode.fail("until comes after from") }
            let caster = Broadcaster(name: name, token: token, mode: mode, levelDbfs: level, from: from, until: until)
            // Two frames of one mode at once would collide; the decoder need not separate them.
            for other in audio.broadcasters
            where other.mode == mode
                && other.from < (until ?? .max) && from < (other.until ?? .max)
            {
                throw b.fail(
                    "\(name) and \(other.name) play \(mode) frames at the same time; give them apart from/until")
            }
            audio.broadcasters.append(caster)
        }
        return audio
    }

    static func scanner(_ n: JSONNode) throws(JSONInputError) -> Scanner {
        let o = try n.object(allowed: [
            "interval", "window", "sensitivityDbm", "reports", "batch", "maxReportsPerEvent",
            "lossRate", "fragmentBytes", "pauses",
        ])
        var s = Scanner()
        if let v = o.optional("interval") { s.intervalMicros = try v.microseconds(in: 2_500...10_240_000) }
        s.windowMicros = s.intervalMicros
        if let v = o.optional("window") { s.windowMicros = try v.microseconds(in: 2_500...s.intervalMicros) }
        if let v = o.optional("sensitivityDbm") { s.sensitivityDBm = try v.number(in: -127...20) }
        if let v = o.optional("reports") {
            s.reports = Scanner.Reports(rawValue: try v.choice(["legacy", "extended"]))!
        }
        if let v = o.optional("batch") { s.batchMicros = try v.microseconds(in: 0...10_000_000) }
        if let v = o.optional("maxReportsPerEvent") { s.maxReportsPerEvent = Int(try v.integer(in: 1...25)) }
        if let v = o.optional("lossRate") { s.lossRate = try v.number(in: 0...0.99) }
        if let v = o.optional("fragmentBytes") {
            guard s.reports == .extended else { throw v.fail("fragments exist only in extended reports") }
            s.fragmentBytes = Int(try v.integer(in: 1...229))
        }
        if let v = o.optional("pauses") {
            var last: Int64 = -1
            for p in try v.array() {
                let pair = try p.array()
                guard pair.count == 2 else { throw p.fail("a pause is [from, until] in seconds") }
                let from = try ModelJSON.time(pair[0]), until = try ModelJSON.time(pair[1])
                guard from < until, from > last else { throw p.fail("pauses are non-empty, in order and apart") }
                last = until
                s.pauses.append((from, until))
            }
        }
        return s
    }

    static func device(_ n: JSONNode, durationMicros: Int64) throws(JSONInputError) -> Device {
        let o = try n.object(allowed: [
            "name", "address", "addressType", "interval", "connectable", "extendedAdvertising",
            "path", "rssiNoiseDb", "frames",
        ])
        let name = try o.required("name").string()
        let aNode = try o.required("address")
        guard let address = BluetoothAddress(try aNode.string()) else {
            throw aNode.fail("not an address aa:bb:cc:dd:ee:ff")
        }
        let addressType: AddressType =
            try o.optional("addressType")?.choice(["public", "random"]) == "public" ? .public : .random
        let interval = try o.optional("interval")?.microseconds(in: 20_000...10_240_000) ?? 100_000
        let connectable = try o.optional("connectable")?.bool() ?? false
        let extended = try o.optional("extendedAdvertising")?.bool() ?? false
        var path: [(time: Int64, dBm: Double)] = []
        let pNode = try o.required("path")
        for p in try pNode.array() {
            let pair = try p.array()
            guard pair.count == 2 else { throw p.fail("a path point is [time, dBm]") }
            let t = try ModelJSON.time(pair[0])
            if let last = path.last, t < last.time { throw p.fail("path points are in time order") }
            path.append((t, try pair[1].number(in: -200...20)))
        }
        if path.isEmpty { throw pNode.fail("give at least one [time, dBm] point") }
        let noise = try o.optional("rssiNoiseDb")?.number(in: 0...30) ?? 0
        let fNode = try o.required("frames")
        var frames: [Frame] = []
        for f in try fNode.array() {
            if case .object(let fields) = f.value, fields["eddystoneEid"] != nil {
                frames += try Self.eidFrames(f, durationMicros: durationMicros)
            } else {
                frames.append(try Self.frame(f, extended: extended))
            }
        }
        if frames.isEmpty { throw fNode.fail("a device sends at least one frame") }
        return Device(
            name: name, address: address, addressType: addressType, intervalMicros: interval,
            connectable: connectable, extendedAdvertising: extended, path: path, rssiNoiseDB: noise, frames: frames)
    }

    static let frameKinds = [
        "eddystoneUid", "eddystoneUrl", "eddystoneTlm", "eddystoneEid", "iBeacon", "altBeacon", "token", "adData",
    ]

    /// Unrelated device `i`: a random static address, a steady signal, and an advertisement
    /// of a kind seen in every real capture that is none of the beacon formats.
    static func clutterDevice(_ i: Int, interval: Int64, generator g: inout SeededGenerator) -> Device {
        let address = BluetoothAddress(rawValue: g.next() | 0xC000_0000_0000)
        let payloads: [[UInt8]] = [
            [0x02, 0x01, 0x1A, 0x0A, 0xFF, 0x4C, 0x00, 0x10, 0x05, 0x0B, 0x1C, 0x3A, 0x9F, 0x22],  // Apple Nearby Info
            [0x1E, 0xFF, 0x06, 0x00, 0x01, 0x09, 0x20, 0x02]
                + (0..<23).map { _ in UInt8(truncatingIfNeeded: g.next()) },  // Microsoft CDP
            [0x02, 0x01, 0x06, 0x06, 0x16, 0x2C, 0xFE, 0x00, 0x01, 0x02],  // Fast Pair service data
            [0x02, 0x01, 0x06, 0x09, 0x09] + Array("Sensor-\(i % 10)".utf8.prefix(8)),  // a name only
            [0x02, 0x01, 0x06, 0x05, 0xFF, 0xFF, 0xFF, 0x01, 0x02],  // test company 0xFFFF
        ]
        var d = Device(
            name: "clutter-\(i)", address: address, addressType: .random, intervalMicros: interval,
            connectable: i % 2 == 0, path: [(0, -90 + Double(g.upTo(35)))], rssiNoiseDB: 3,
            frames: [Frame(kind: "other", adData: payloads[i % payloads.count])])
        d.isClutter = true
        return d
    }
}
