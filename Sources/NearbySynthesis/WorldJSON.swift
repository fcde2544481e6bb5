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

    static func frame(_ n: JSONNode, extended: Bool) throws(JSONInputError) -> Frame {
        let o = try n.object(allowed: frameKinds + ["txPower", "manufacturer", "from", "until", "address"])
        let present = frameKinds.filter(o.has)
        guard present.count == 1 else {
            throw n.fail("a frame has exactly one of \(frameKinds.joined(separator: ", "))")
        }
        let v = try o.required(present[0])
        func power(_ d: Int8) throws(JSONInputError) -> Int8 {
            try o.optional("txPower").map { (p) throws(JSONInputError) in Int8(try p.integer(in: -127...20)) } ?? d
        }
        let kind: String, ad: [UInt8]
        switch present[0] {
        case "eddystoneUid":
            let id = try ModelJSON.hex(v, lengths: [16])
            kind = "eddystone-uid"
            ad = BeaconAdvertisingData.eddystoneUID(
                namespace: Array(id[0..<10]), instance: Array(id[10..<16]), txPower: try power(-20))
        case "eddystoneUrl":
            let url = try v.string()
            guard let enc = BeaconAdvertisingData.encodeURL(url) else {
                throw v.fail("not encodable as Eddystone-URL (scheme http(s)://, printable ASCII, ≤ 17 encoded bytes)")
            }
            kind = "eddystone-url"
            ad = BeaconAdvertisingData.eddystoneURL(encoded: enc, txPower: try power(-20))
        case "eddystoneTlm":
            let t = try Self.telemetry(try v.object(allowed: Self.telemetryFields))
            kind = "eddystone-tlm"
            ad = BeaconAdvertisingData.eddystoneTLM(
                batteryMillivolts: t.batteryRaw, temperature88: t.temperatureRaw,
                advertisingCount: t.advertisingCount, uptimeTenths: t.uptimeTenths)
        case "iBeacon":
            kind = "ibeacon"
            ad = BeaconAdvertisingData.iBeacon(
                uuidMajorMinor: try ModelJSON.hex(v, lengths: [20]), measuredPower: try power(-59))
        case "altBeacon":
            kind = "altbeacon"
            let m = UInt16(try o.optional("manufacturer")?.integer(in: 0...65535) ?? 0x0118)
            ad = BeaconAdvertisingData.altBeacon(
                manufacturer: m, beaconID: try ModelJSON.hex(v, lengths: [20]), referenceRSSI: try power(-59))
        case "token":
            kind = "token-v1"
            ad = BeaconAdvertisingData.token(
                try ModelJSON.hex(v, lengths: TokenAdvertisement.allowedLengths.sorted()), txPower: try power(-12))
        default:
            kind = "ad-data"
            guard let bytes = Hex.decode(try v.string()) else { throw v.fail("not hex") }
            ad = bytes
        }
        if !extended && ad.count > 31 {
            throw n.fail("\(ad.count) bytes of AD data; legacy advertising carries at most 31")
        }
        if ad.count > 229 * 7 { throw n.fail("AD data too long for extended advertising") }
        let from = try o.optional("from").map { (f) throws(JSONInputError) in try ModelJSON.time(f) }
        let until = try o.optional("until").map { (u) throws(JSONInputError) in try ModelJSON.time(u) }
        if let from, let until, until <= from { throw n.fail("until must be later than from") }
        var address: BluetoothAddress?
        if let a = o.optional("address") {
            guard let parsed = BluetoothAddress(try a.string()) else {
                throw a.fail("not an address aa:bb:cc:dd:ee:ff")
            }
            address = parsed
        }
        return Frame(kind: kind, adData: ad, from: from, until: until, address: address)
    }

    static let telemetryFields = ["batteryMillivolts", "temperatureCelsius", "advertisingCount", "uptimeSeconds"]

    /// TLM fields (`eddystoneTlm`, and an EID beacon's `etlm`): battery mV, temperature in
    /// 1/256 °C steps, advertising count, uptime in 0.1 s steps.
    static func telemetry(_ t: JSONObject) throws(JSONInputError) -> EddystoneTLM {
        let tempNode = try t.required("temperatureCelsius"), upNode = try t.required("uptimeSeconds")
        let temp = try tempNode.number(in: -128...127.99609375)
        guard (temp * 256).rounded() == temp * 256 else {
            throw tempNode.fail("a multiple of 1/256 °C (8.8 fixed point)")
        }
        let up = try upNode.microseconds(in: 0...429_496_729_500_000)
        guard up % 100_000 == 0 else { throw upNode.fail("a multiple of 0.1 s") }
        return EddystoneTLM(
            batteryRaw: UInt16(try t.required("batteryMillivolts").integer(in: 0...65535)),
            temperatureRaw: Int16(temp * 256),
            advertisingCount: UInt32(try t.required("advertisingCount").integer(in: 0...4_294_967_295)),
            uptimeTenths: UInt32(up / 100_000))
    }

    /// An Eddystone-EID beacon's frames (docs/synthesis.md, "EID beacons"): one EID frame per
    /// rotation period of the beacon's clock, each from its own non-resolvable private
    /// address (the first 6 bytes of the EID with the top two bits cleared) unless
    /// `rotateAddress` is false, and with `etlm` an encrypted TLM frame beside each, under
    /// the same address, its uptime and count advanced to the period's start and its salt
    /// the period's EID bytes 6–7.
    static func eidFrames(_ n: JSONNode, durationMicros: Int64) throws(JSONInputError) -> [Frame] {
        let o = try n.object(allowed: ["eddystoneEid", "txPower", "from", "until"])
        let e = try o.required("eddystoneEid").object(allowed: [
            "identityKey", "exponent", "clockAtStart", "clockPpm", "rotateAddress", "etlm",
        ])
        let key = try ModelJSON.hex(e.required("identityKey"), lengths: [16])
        let exponent = Int(try e.required("exponent").integer(in: 0...15))
        let generator: EIDGenerator
        do {
            generator = try EIDGenerator(identityKey: key, exponent: exponent)
        } catch {
            throw e.node.fail(error.reason)
        }
        let clockAtStart = try e.required("clockAtStart").integer(in: 0...Int64(UInt32.max))
        let ppm = try e.optional("clockPpm")?.number(in: -1000...1000) ?? 0
        let rotate = try e.optional("rotateAddress")?.bool() ?? true
        let txPower = Int8(try o.optional("txPower")?.integer(in: -127...20) ?? -4)
        let from = try o.optional("from").map { (f) throws(JSONInputError) in try ModelJSON.time(f) } ?? 0
        let until = min(
            try o.optional("until").map { (u) throws(JSONInputError) in try ModelJSON.time(u) } ?? durationMicros,
            durationMicros)
        if until <= from { throw n.fail("until must be later than from") }
        var tlm: (plain: EddystoneTLM, nordic: Bool)?
        if let t = e.optional("etlm") {
            let to = try t.object(allowed: Self.telemetryFields + ["nordicPadding"])
            tlm = (try Self.telemetry(to), try to.optional("nordicPadding")?.bool() ?? false)
        }
        // The beacon's clock at scenario time t (µs): clockAtStart + ⌊t·(1 + ppm·10⁻⁶) / 10⁶⌋,
        // not wrapped; period p of the clock begins at the first t where the clock reaches p·2^K.
        let rate = 1 + ppm * 1e-6
        func clock(at t: Int64) -> Int64 { clockAtStart + Int64((Double(t) * rate / 1e6).rounded(.down)) }
        func time(ofClock c: Int64) -> Int64 {
            var t = Int64((Double(c - clockAtStart) * 1e6 / rate).rounded(.up))
            while clock(at: t) < c { t += 1 }
            while t > 0 && clock(at: t - 1) >= c { t -= 1 }
            return t
        }
        let k = Int64(generator.exponent)
        var frames: [Frame] = []
        var period = clock(at: from) >> k
        while true {
            let start = max(from, time(ofClock: period << k)), end = min(until, time(ofClock: (period + 1) << k))
            if start >= until { break }
            if end > start {
                let beaconTime = UInt32(truncatingIfNeeded: period << k)
                let eid = generator.eid(at: beaconTime)
                let address =
                    rotate
                    ? BluetoothAddress(
                        rawValue: eid[0..<6].reduce(UInt64(0)) { $0 << 8 | UInt64($1) } & 0x3FFF_FFFF_FFFF) : nil
                frames.append(
                    Frame(
                        kind: "eddystone-eid", adData: BeaconAdvertisingData.eddystoneEID(eid, txPower: txPower),
                        from: start, until: end, address: address))
                if let tlm {
                    let secondsIn = start / 1_000_000
                    var plain = tlm.plain
                    plain.advertisingCount &+= UInt32(truncatingIfNeeded: secondsIn * 10)
                    plain.uptimeTenths &+= UInt32(truncatingIfNeeded: secondsIn * 10)
                    // Cannot fail: the salt has 2 bytes.
                    let sd = try! EncryptedTelemetry.encrypt(
                        plain, with: generator, beaconTime: beaconTime, salt: [eid[6], eid[7]],
                        nordicPadding: tlm.nordic)
                    frames.append(
                        Frame(
                            kind: "eddystone-etlm", adData: BeaconAdvertisingData.eddystoneFrame(sd),
                            from: start, until: end, address: address))
                }
            }
            period += 1
        }
        return frames
    }

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
