import NearbyBytes
import NearbyJSON
import NearbySynthesis

/// Builds beacon advertisements with random field values (docs/spec/eddystone.md,
/// ibeacon-altbeacon.md, ble-token.md), each in the AD structures a real beacon sends, with
/// unrelated AD structures around it when they fit in the 31 bytes of a legacy advertisement.
/// The same seed gives the same frames.
struct FrameGenerator {
    var rng: SeededGenerator

    init(seed: UInt64) { rng = SeededGenerator(seed: seed) }

    /// The next frame, of a type chosen at random.
    mutating func next() -> GeneratedFrame {
        var f: GeneratedFrame
        switch int(0..<8) {
        case 0: f = eddystoneUID()
        case 1: f = eddystoneURL()
        case 2: f = eddystoneTLM()
        case 3: f = eddystoneEncryptedTLM()
        case 4: f = eddystoneEID()
        case 5: f = iBeacon()
        case 6: f = altBeacon()
        default: f = token()
        }
        surround(&f)
        return f
    }

    // MARK: random values

    mutating func int(_ range: Range<Int>) -> Int { range.lowerBound + Int(rng.upTo(Int64(range.count - 1))) }
    mutating func chance(_ p: Double) -> Bool { rng.unit() < p }
    mutating func bytes(_ n: Int) -> [UInt8] { (0..<n).map { _ in UInt8(truncatingIfNeeded: rng.next()) } }

    /// A signed byte, at either bound one time in eight (`FieldBounds`).
    mutating func int8(_ flags: inout [String]) -> Int8 {
        if chance(0.125) {
            flags.append("FieldBounds")
            return chance(0.5) ? .min : .max
        }
        return Int8(truncatingIfNeeded: rng.next())
    }

    mutating func uint16(_ flags: inout [String]) -> UInt16 {
        if chance(0.125) {
            flags.append("FieldBounds")
            return chance(0.5) ? 0 : .max
        }
        return UInt16(truncatingIfNeeded: rng.next())
    }

    mutating func uint32(_ flags: inout [String]) -> UInt32 {
        if chance(0.125) {
            flags.append("FieldBounds")
            return chance(0.5) ? 0 : .max
        }
        return UInt32(truncatingIfNeeded: rng.next())
    }

    static func hex(_ b: [UInt8]) -> JSONValue { .string(Hex.encode(b)) }

    static func bigEndian(_ v: UInt64, _ n: Int) -> [UInt8] {
        (0..<n).reversed().map { UInt8(truncatingIfNeeded: v >> (8 * UInt64($0))) }
    }

    /// `00112233-4455-6677-8899-aabbccddeeff`.
    static func uuid(_ b: [UInt8]) -> String {
        let h = Hex.encode(b)
        var out = ""
        for (i, c) in h.enumerated() {
            if [8, 12, 16, 20].contains(i) { out += "-" }
            out.append(c)
        }
        return out
    }

    // MARK: Eddystone

    /// The Eddystone container: the Complete List of 16-bit Service UUIDs naming 0xFEAA, then
    /// Service Data for 0xFEAA carrying `frame`.
    static func eddystone(_ frame: [UInt8]) -> [UInt8] {
        [0x03, 0x03, 0xAA, 0xFE, UInt8(3 + frame.count), 0x16, 0xAA, 0xFE] + frame
    }

    mutating func signedFlag(_ v: Int8, _ flags: inout [String]) {
        if v < 0 && !flags.contains("SignedField") { flags.append("SignedField") }
    }

    mutating func eddystoneUID() -> GeneratedFrame {
        var flags: [String] = []
        let tx = int8(&flags)
        signedFlag(tx, &flags)
        let namespace = bytes(10), instance = bytes(6)
        var frame: [UInt8] = [0x00, UInt8(bitPattern: tx)] + namespace + instance
        var o: [String: JSONValue] = [
            "type": .string("eddystone-uid"), "txPower": .int(tx), "namespace": Self.hex(namespace),
            "instance": Self.hex(instance),
        ]
        var clauses = ["EDDYSTONE-FRAME-2", "EDDYSTONE-FRAME-8", "EDDYSTONE-UID-1", "EDDYSTONE-UID-3"]
        if chance(0.85) {
            // The two RFU bytes; sent as zero, and reported as sent when they are not.
            let rfu: [UInt8] = chance(0.8) ? [0, 0] : bytes(2)
            if rfu != [0, 0] { flags.append("ReservedBits") }
            clauses += ["EDDYSTONE-UID-4", "EDDYSTONE-UID-5"]
            frame += rfu
            o["reserved"] = Self.hex(rfu)
        } else {
            clauses.append("EDDYSTONE-UID-6")
        }
        return GeneratedFrame(
            adData: Self.eddystone(frame), beacons: [.object(o)], clauses: clauses, flags: flags,
            what: "Eddystone-UID, Tx power \(tx) dBm" + (o["reserved"] == nil ? ", without RFU bytes" : ""))
    }

    static let schemes = ["http://www.", "https://www.", "http://", "https://"]
    static let expansions = [
        ".com/", ".org/", ".edu/", ".net/", ".info/", ".biz/", ".gov/", ".com", ".org", ".edu", ".net", ".info",
        ".biz", ".gov",
    ]

    mutating func eddystoneURL() -> GeneratedFrame {
        var flags: [String] = ["UrlExpansion"]
        let tx = int8(&flags)
        signedFlag(tx, &flags)
        let scheme = int(0..<4)
        let length = chance(0.1) ? 17 : int(1..<18)
        if length == 17 { flags.append("FieldBounds") }
        var encoded: [UInt8] = []
        var url = Self.schemes[scheme]
        for _ in 0..<length {
            if chance(0.2) {
                let code = int(0..<14)
                encoded.append(UInt8(code))
                url += Self.expansions[code]
            } else {
                let c = UInt8(int(0x21..<0x7F))
                encoded.append(c)
                url.unicodeScalars.append(Unicode.Scalar(c))
            }
        }
        let o: [String: JSONValue] = [
            "type": .string("eddystone-url"), "txPower": .int(tx), "scheme": .int(scheme),
            "encodedUrl": Self.hex(encoded), "url": .string(url),
        ]
        return GeneratedFrame(
            adData: Self.eddystone([0x10, UInt8(bitPattern: tx), UInt8(scheme)] + encoded), beacons: [.object(o)],
            clauses: ["EDDYSTONE-FRAME-2", "EDDYSTONE-URL-1", "EDDYSTONE-URL-2", "EDDYSTONE-URL-3", "EDDYSTONE-URL-4"]
                + ["EDDYSTONE-URL-5", "EDDYSTONE-URL-8"] + (length == 17 ? ["EDDYSTONE-URL-11"] : []), flags: flags,
            what: "Eddystone-URL \(url)")
    }

    mutating func eddystoneTLM() -> GeneratedFrame {
        var flags: [String] = ["FixedPoint"]
        let battery = chance(0.15) ? 0 : uint16(&flags)
        let temperature: Int16 =
            chance(0.15) ? .min : chance(0.1) ? (chance(0.5) ? .max : .min + 1) : Int16(truncatingIfNeeded: rng.next())
        if temperature < 0 && temperature != .min { flags.append("SignedField") }
        let count = uint32(&flags), tenths = uint32(&flags)
        let frame: [UInt8] =
            [0x20, 0x00] + Self.bigEndian(UInt64(battery), 2)
            + Self.bigEndian(UInt64(UInt16(bitPattern: temperature)), 2) + Self.bigEndian(UInt64(count), 4)
            + Self.bigEndian(UInt64(tenths), 4)
        let o: [String: JSONValue] = [
            "type": .string("eddystone-tlm"), "version": .int(0),
            "batteryMillivolts": battery == 0 ? .null : .int(battery),
            // Signed 8.8 fixed point: exact in a Double.
            "temperatureCelsius": temperature == .min ? .null : .double(Double(temperature) / 256),
            "advertisingCount": .int(count),
            "uptimeSeconds": .number("\(tenths / 10).\(tenths % 10)"),
        ]
        return GeneratedFrame(
            adData: Self.eddystone(frame), beacons: [.object(o)],
            clauses: [
                "EDDYSTONE-FRAME-7", "EDDYSTONE-TLM-1", "EDDYSTONE-TLM-4", "EDDYSTONE-TLM-5", "EDDYSTONE-TLM-6",
                "EDDYSTONE-TLM-7", "EDDYSTONE-TLM-8", "EDDYSTONE-TLM-9", "EDDYSTONE-TLM-11",
            ], flags: Array(Set(flags)).sorted(),
            what:
                "Eddystone-TLM, \(battery) mV, temperature raw 0x\(String(UInt16(bitPattern: temperature), radix: 16))")
    }

    mutating func eddystoneEncryptedTLM() -> GeneratedFrame {
        let ciphertext = bytes(12), salt = bytes(2), mic = bytes(2)
        let o: [String: JSONValue] = [
            "type": .string("eddystone-etlm"), "version": .int(1), "encryptedTlm": Self.hex(ciphertext),
            "salt": Self.hex(salt), "mic": Self.hex(mic),
        ]
        return GeneratedFrame(
            adData: Self.eddystone([0x20, 0x01] + ciphertext + salt + mic), beacons: [.object(o)],
            clauses: ["EDDYSTONE-ETLM-1", "EDDYSTONE-ETLM-5"], flags: ["Encrypted"], what: "Eddystone-eTLM")
    }

    mutating func eddystoneEID() -> GeneratedFrame {
        var flags: [String] = []
        let tx = int8(&flags)
        signedFlag(tx, &flags)
        let eid = bytes(8)
        let o: [String: JSONValue] = ["type": .string("eddystone-eid"), "txPower": .int(tx), "eid": Self.hex(eid)]
        return GeneratedFrame(
            adData: Self.eddystone([0x30, UInt8(bitPattern: tx)] + eid), beacons: [.object(o)],
            clauses: ["EDDYSTONE-EID-1", "EDDYSTONE-EID-2", "EDDYSTONE-EID-4"], flags: flags + ["Encrypted"],
            what: "Eddystone-EID")
    }

    // MARK: Apple and AltBeacon

    mutating func iBeacon() -> GeneratedFrame {
        var flags: [String] = ["ManufacturerData"]
        let uuid = bytes(16), major = uint16(&flags), minor = uint16(&flags)
        let power = int8(&flags)
        signedFlag(power, &flags)
        let data: [UInt8] =
            [0x1A, 0xFF, 0x4C, 0x00, 0x02, 0x15] + uuid + Self.bigEndian(UInt64(major), 2)
            + Self.bigEndian(UInt64(minor), 2) + [UInt8(bitPattern: power)]
        let o: [String: JSONValue] = [
            "type": .string("ibeacon"), "uuid": .string(Self.uuid(uuid)), "major": .int(major), "minor": .int(minor),
            "measuredPower": .int(power),
        ]
        return GeneratedFrame(
            adData: data, beacons: [.object(o)],
            clauses: ["IBEACON-2", "IBEACON-5", "IBEACON-6", "IBEACON-7", "IBEACON-9"],
            flags: Array(Set(flags)).sorted(),
            what: "iBeacon \(major)/\(minor)")
    }

    mutating func altBeacon() -> GeneratedFrame {
        var flags: [String] = ["ManufacturerData"]
        // Any company, Apple's included (ALTBEACON-2).
        let company = chance(0.05) ? 0x004C : uint16(&flags)
        let id = bytes(20)
        let rssi = int8(&flags)
        signedFlag(rssi, &flags)
        let reserved = UInt8(truncatingIfNeeded: rng.next())
        let data: [UInt8] =
            [0x1B, 0xFF, UInt8(company & 0xFF), UInt8(company >> 8), 0xBE, 0xAC] + id + [
                UInt8(bitPattern: rssi), reserved,
            ]
        let o: [String: JSONValue] = [
            "type": .string("altbeacon"), "manufacturer": .int(company), "beaconId": Self.hex(id),
            "uuid": .string(Self.uuid(Array(id[0..<16]))),
            "major": .int(UInt16(id[16]) << 8 | UInt16(id[17])), "minor": .int(UInt16(id[18]) << 8 | UInt16(id[19])),
            "measuredPower": .int(rssi), "reserved": .int(reserved),
        ]
        return GeneratedFrame(
            adData: data, beacons: [.object(o)],
            clauses: [
                "ALTBEACON-2", "ALTBEACON-3", "ALTBEACON-5", "ALTBEACON-6", "ALTBEACON-7", "ALTBEACON-8", "ALTBEACON-9",
            ], flags: Array(Set(flags)).sorted(),
            what: "AltBeacon of company 0x\(String(company, radix: 16))")
    }

    // MARK: BLE token v1

    mutating func token() -> GeneratedFrame {
        var flags: [String] = []
        let length = chance(0.4) ? 6 : int(8..<17)
        if length == 16 { flags.append("FieldBounds") }
        let token = bytes(length)
        let tx = int8(&flags)
        signedFlag(tx, &flags)
        let reservedFlags = chance(0.8) ? 0 : int(1..<16)
        if reservedFlags != 0 { flags.append("ReservedBits") }
        let sd: [UInt8] =
            [0xF3, 0xFE, 0xF7, UInt8(0x10 | reservedFlags), UInt8(length)] + token + [UInt8(bitPattern: tx)]
        let data: [UInt8] = [0x03, 0x03, 0xF3, 0xFE, UInt8(1 + sd.count), 0x16] + sd
        let o: [String: JSONValue] = [
            "type": .string("token-v1"), "token": Self.hex(token), "txPower": .int(tx), "flags": .int(reservedFlags),
        ]
        return GeneratedFrame(
            adData: data, beacons: [.object(o)],
            clauses: [
                "TOKEN-1", "TOKEN-2", "TOKEN-3", "TOKEN-4", "TOKEN-5", "TOKEN-6", "TOKEN-7", "TOKEN-8", "TOKEN-18",
            ], flags: Array(Set(flags)).sorted(),
            what: "BLE token v1, \(length) bytes")
    }

    // MARK: surroundings

    /// Adds the Flags AD before the frame and, while they fit in 31 bytes, a local name or a
    /// Tx Power Level after it: structures a decoder must pass over (`MultipleStructures`).
    mutating func surround(_ f: inout GeneratedFrame) {
        if f.adData.count + 3 <= 31 && chance(0.8) { f.adData = [0x02, 0x01, 0x06] + f.adData }
        var added = false
        if f.adData.count + 3 <= 31 && chance(0.3) {
            f.adData += [0x02, 0x0A, UInt8(bitPattern: Int8(truncatingIfNeeded: int(-30..<10)))]
            added = true
        }
        let room = 31 - f.adData.count - 2
        if room >= 1 && chance(0.3) {
            let name = (0..<int(1..<(room + 1))).map { _ in UInt8(int(0x61..<0x7B)) }
            f.adData += [UInt8(1 + name.count), 0x09] + name
            added = true
        }
        if added { f.flags.append("MultipleStructures") }
        f.flags = Array(Set(f.flags)).sorted()
    }
}
