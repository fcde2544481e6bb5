import NearbyBytes
import NearbyFormats
import NearbyJSON

/// The JSON object of one beacon frame in `decode` output (docs/decode-output.md).
/// Identifiers are lower-case hex, UUIDs lower-case with dashes, powers in dBm, times in
/// seconds; keys in the order of their UTF-8 bytes.
public enum BeaconJSON {
    /// Writes the beacon's object.
    package static func write(_ beacon: BeaconFrame, to w: inout JSONWriter) {
        w.beginObject()
        if !writeRun(beacon, to: &w, style: .json) { writeMembers(beacon, to: &w) }
        w.endObject()
    }

    /// Writes the beacon's object with `extra` members merged in among its own, keys in
    /// order (`decode --registry` adds a few to EID and eTLM frames).
    package static func write(_ beacon: BeaconFrame, adding extra: [String: JSONValue], to w: inout JSONWriter) {
        guard case .object(var members) = object(beacon) else { preconditionFailure("a beacon is an object") }
        members.merge(extra) { $1 }
        w.value(.object(members))
    }

    /// Writes the members of a frame of a fixed shape (Eddystone-UID, TLM version 0, EID,
    /// iBeacon, AltBeacon, token v1) in one run, in `style`: as the object's members, or as
    /// the ` key=value` text of `decode --format table`, which leaves out `type`. Returns
    /// false, having written nothing, for other frames.
    package static func writeRun(_ beacon: BeaconFrame, to w: inout JSONWriter, style: JSONRun.Style) -> Bool {
        switch beacon {
        case .eddystone(.uid(let uid)):
            w.run(maxLength: runBound, endsWithValue: true, style: style) { r in
                r.member(#""instance":"#, hex: uid.instance)
                r.member(#","namespace":"#, hex: uid.namespace)
                if !uid.reserved.isEmpty {
                    r.member(#","reserved":"#, hex: uid.reserved)
                }
                r.member(#","txPower":"#, uid.txPowerDBm)
                type(beacon, &r)
            }
        case .eddystone(.tlm(let tlm)):
            w.run(maxLength: runBound, endsWithValue: true, style: style) { r in
                r.member(#""advertisingCount":"#, tlm.advertisingCount)
                r.member(#","batteryMillivolts":"#, tlm.batteryMillivolts)
                r.key(#","temperatureCelsius":"#)
                if tlm.temperatureRaw == Int16.min {
                    r.null()
                } else {
                    r.dyadic(Int32(tlm.temperatureRaw), fractionBits: 8)
                }
                type(beacon, &r)
                r.key(#","uptimeSeconds":"#)
                r.fixed(Int64(tlm.uptimeTenths), decimals: 1)
                r.member(#","version":"#, 0)
            }
        case .eddystone(.eid(let eid)):
            w.run(maxLength: runBound, endsWithValue: true, style: style) { r in
                r.member(#""eid":"#, hex: eid.eid)
                r.member(#","txPower":"#, eid.txPowerDBm)
                type(beacon, &r)
            }
        case .iBeacon(let b):
            w.run(maxLength: runBound, endsWithValue: true, style: style) { r in
                r.member(#""major":"#, b.major)
                r.member(#","measuredPower":"#, b.measuredPowerDBm)
                r.member(#","minor":"#, b.minor)
                type(beacon, &r)
                r.key(#","uuid":"#)
                uuid(b.uuid, &r)
            }
        case .altBeacon(let b):
            w.run(maxLength: runBound, endsWithValue: true, style: style) { r in
                r.member(#""beaconId":"#, hex: b.beaconID)
                r.member(#","major":"#, UInt16(b.beaconID[16]) << 8 | UInt16(b.beaconID[17]))
                r.member(#","manufacturer":"#, b.manufacturer.rawValue)
                r.member(#","measuredPower":"#, b.referenceRSSIDBm)
                r.member(#","minor":"#, UInt16(b.beaconID[18]) << 8 | UInt16(b.beaconID[19]))
                r.member(#","reserved":"#, b.reserved)
                type(beacon, &r)
                r.key(#","uuid":"#)
                uuid(b.beaconID.prefix(16), &r)
            }
        case .token(.v1(let t)):
            w.run(maxLength: runBound, endsWithValue: true, style: style) { r in
                r.member(#""flags":"#, t.flags)
                r.member(#","token":"#, hex: t.token)
                r.member(#","txPower":"#, t.txPowerDBm)
                type(beacon, &r)
            }
        default:
            return false
        }
        return true
    }

    /// The members of the frames `writeRun` leaves: those holding arrays of any length.
    private static func writeMembers(_ beacon: BeaconFrame, to w: inout JSONWriter) {
        switch beacon {
        case .eddystone(.url(let url)):
            w.member("encodedUrl", hex: url.encodedBytes)
            if url.encodedBytes.contains(where: EddystoneURL.isReserved) {
                let reserved = url.reservedBytes
                w.key("reservedBytes")
                w.beginArray()
                for byte in reserved {
                    w.beginObject()
                    w.member("offset", byte.offset)
                    w.member("value", byte.value)
                    w.endObject()
                }
                w.endArray()
            }
            w.member("scheme", url.scheme)
            w.member("txPower", url.txPowerDBm)
            type(beacon, &w)
            w.key("url")
            if url.withExpandedURL({ w.string(utf8: $0) }) == nil { w.null() }
        case .eddystone(.tlmUnknownVersion(let version, let data)), .token(.unknownVersion(let version, let data)):
            w.member("data", hex: data)
            type(beacon, &w)
            w.member("version", version)
        case .eddystone(.encryptedTLM(let etlm)):
            w.member("encryptedTlm", hex: etlm.ciphertext)
            w.member("mic", hex: etlm.mic)
            if let pad = etlm.nordicPadding {
                w.member("nordicPadding", pad)
            }
            w.member("salt", hex: etlm.salt)
            type(beacon, &w)
            w.member("version", 1)
        case .eddystone(.e2eeEID(let e2ee)):
            w.member("eid", hex: e2ee.eid)
            w.member("hashedFlags", e2ee.hashedFlags)
            type(beacon, &w)
        case .eddystone(.unknown(let frameType, let data)):
            w.member("data", hex: data)
            w.member("frameType", frameType)
            type(beacon, &w)
        default:
            // `writeRun` wrote the others.
            break
        }
    }

    /// The beacon's object as a value tree (for comparisons; output goes through `write`).
    public static func object(_ beacon: BeaconFrame) -> JSONValue {
        var w = JSONWriter(capacity: 256)
        write(beacon, to: &w)
        return try! JSONParser.parse(w.bytes)
    }

    /// The longest run of a frame whose bytes are `ShortBytes`: its keys and numbers take
    /// under 200 bytes, its identifiers (at most three of at most 24 bytes) under 160 in hex.
    private static let runBound = 512

    private static func type(_ beacon: BeaconFrame, _ w: inout JSONWriter) {
        w.member("type", plain: beacon.staticTypeName)
    }

    /// The `type` member after another member; nothing in `text` style.
    private static func type(_ beacon: BeaconFrame, _ r: inout JSONRun) {
        guard r.style == .json else { return }
        r.literal(#","type":""#)
        r.literal(beacon.staticTypeName)
        r.literal(#"""#)
    }

    /// 16 bytes as a string `"xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx"`, lower case.
    private static func uuid<C: Collection>(_ bytes: C, _ r: inout JSONRun) where C.Element == UInt8 {
        r.literal(#"""#)
        r.write { out in
            var n = 0
            for (i, byte) in bytes.enumerated() {
                if i == 4 || i == 6 || i == 8 || i == 10 {
                    out[n] = UInt8(ascii: "-")
                    n += 1
                }
                JSONWriter.writeHex(byte, to: out + n)
                n += 2
            }
            return n
        }
        r.literal(#"""#)
    }
}
