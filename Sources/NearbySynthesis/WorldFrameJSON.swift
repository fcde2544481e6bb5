import NearbyAudio
import NearbyBytes
import NearbyCapture
import NearbyFormats
import NearbyJSON
import NearbyMessages
import NearbySecurity

/// A device's frames in a world file (docs/synthesis.md): AD data, Eddystone telemetry, and
/// EID frames rotated over the world's duration.
extension World {
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
}
