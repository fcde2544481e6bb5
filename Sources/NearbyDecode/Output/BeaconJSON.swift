import NearbyBytes
import NearbyFormats
import NearbyJSON

/// The JSON object of one beacon frame in `decode` output (docs/decode-output.md).
/// Identifiers are lower-case hex, UUIDs lower-case with dashes, powers in dBm, times in
/// seconds; keys in the order of their UTF-8 bytes.
public enum BeaconJSON {
    /// Writes the beacon's object.
    public static func write(_ beacon: BeaconFrame, to w: inout JSONWriter) {
        w.beginObject()
        switch beacon {
        case .eddystone(let frame):
            switch frame {
            case .uid(let uid):
                w.member("instance", hex: uid.instance)
                w.member("namespace", hex: uid.namespace)
                if !uid.reserved.isEmpty {
                    w.member("reserved", hex: uid.reserved)
                }
                w.member("txPower", uid.txPowerDBm)
                type(beacon, &w)
            case .url(let url):
                w.member("encodedUrl", hex: url.encoded)
                if url.encoded.contains(where: EddystoneURL.isReserved) {
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
            case .tlm(let tlm):
                w.member("advertisingCount", tlm.advertisingCount)
                w.member("batteryMillivolts", tlm.batteryMillivolts)
                w.key("temperatureCelsius")
                if tlm.temperatureRaw == Int16.min {
                    w.null()
                } else {
                    w.dyadic(Int32(tlm.temperatureRaw), fractionBits: 8)
                }
                type(beacon, &w)
                w.key("uptimeSeconds")
                w.fixed(Int64(tlm.uptimeTenths), decimals: 1)
                w.member("version", 0)
            case .tlmUnknownVersion(let version, let data):
                w.member("data", hex: data)
                type(beacon, &w)
                w.member("version", version)
            case .encryptedTLM(let etlm):
                w.member("encryptedTlm", hex: etlm.ciphertext)
                w.member("mic", hex: etlm.mic)
                if let pad = etlm.nordicPadding {
                    w.member("nordicPadding", pad)
                }
                w.member("salt", hex: etlm.salt)
                type(beacon, &w)
                w.member("version", 1)
            case .eid(let eid):
                w.member("eid", hex: eid.eid)
                w.member("txPower", eid.txPowerDBm)
                type(beacon, &w)
            case .e2eeEID(let e2ee):
                w.member("eid", hex: e2ee.eid)
                w.member("hashedFlags", e2ee.hashedFlags)
                type(beacon, &w)
            case .unknown(let frameType, let data):
                w.member("data", hex: data)
                w.member("frameType", frameType)
                type(beacon, &w)
            }
        case .iBeacon(let b):
            w.member("major", b.major)
            w.member("measuredPower", b.measuredPowerDBm)
            w.member("minor", b.minor)
            type(beacon, &w)
            w.key("uuid")
            uuid(b.uuid, &w)
        case .altBeacon(let b):
            w.member("beaconId", hex: b.beaconID)
            w.member("major", UInt16(b.beaconID[16]) << 8 | UInt16(b.beaconID[17]))
            w.member("manufacturer", b.manufacturer.rawValue)
            w.member("measuredPower", b.referenceRSSIDBm)
            w.member("minor", UInt16(b.beaconID[18]) << 8 | UInt16(b.beaconID[19]))
            w.member("reserved", b.reserved)
            type(beacon, &w)
            w.key("uuid")
            uuid(b.beaconID.prefix(16), &w)
        case .token(.v1(let t)):
            w.member("flags", t.flags)
            w.member("token", hex: t.token)
            w.member("txPower", t.txPowerDBm)
            type(beacon, &w)
        case .token(.unknownVersion(let version, let data)):
            w.member("data", hex: data)
            type(beacon, &w)
            w.member("version", version)
        }
        w.endObject()
    }

    /// The beacon's object as a value tree (for comparisons; output goes through `write`).
    public static func object(_ beacon: BeaconFrame) -> JSONValue {
        var w = JSONWriter(capacity: 256)
        write(beacon, to: &w)
        return try! JSONParser.parse(w.bytes)
    }

    private static func type(_ beacon: BeaconFrame, _ w: inout JSONWriter) {
        w.member("type", plain: beacon.staticTypeName)
    }

    /// 16 bytes as a string `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`, lower case.
    private static func uuid<C: Collection>(_ bytes: C, _ w: inout JSONWriter) where C.Element == UInt8 {
        w.unescapedString(maxLength: 36) { out in
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
    }
}
