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
                w.key("instance")
                w.hex(uid.instance)
                w.key("namespace")
                w.hex(uid.namespace)
                if !uid.reserved.isEmpty {
                    w.key("reserved")
                    w.hex(uid.reserved)
                }
                w.key("txPower")
                w.integer(uid.txPowerDBm)
                type(beacon, &w)
            case .url(let url):
                w.key("encodedUrl")
                w.hex(url.encoded)
                let reserved = url.reservedBytes
                if !reserved.isEmpty {
                    w.key("reservedBytes")
                    w.beginArray()
                    for byte in reserved {
                        w.beginObject()
                        w.key("offset")
                        w.integer(byte.offset)
                        w.key("value")
                        w.integer(byte.value)
                        w.endObject()
                    }
                    w.endArray()
                }
                w.key("scheme")
                w.integer(url.scheme)
                w.key("txPower")
                w.integer(url.txPowerDBm)
                type(beacon, &w)
                w.key("url")
                if let text = url.url { w.string(text) } else { w.null() }
            case .tlm(let tlm):
                w.key("advertisingCount")
                w.integer(tlm.advertisingCount)
                w.key("batteryMillivolts")
                w.integer(tlm.batteryMillivolts)
                w.key("temperatureCelsius")
                if let t = tlm.temperatureCelsius { w.double(t) } else { w.null() }
                type(beacon, &w)
                w.key("uptimeSeconds")
                w.fixed(Int64(tlm.uptimeTenths), decimals: 1)
                w.key("version")
                w.integer(0)
            case .tlmUnknownVersion(let version, let data):
                w.key("data")
                w.hex(data)
                type(beacon, &w)
                w.key("version")
                w.integer(version)
            case .encryptedTLM(let etlm):
                w.key("encryptedTlm")
                w.hex(etlm.ciphertext)
                w.key("mic")
                w.hex(etlm.mic)
                if let pad = etlm.nordicPadding {
                    w.key("nordicPadding")
                    w.integer(pad)
                }
                w.key("salt")
                w.hex(etlm.salt)
                type(beacon, &w)
                w.key("version")
                w.integer(1)
            case .eid(let eid):
                w.key("eid")
                w.hex(eid.eid)
                w.key("txPower")
                w.integer(eid.txPowerDBm)
                type(beacon, &w)
            case .e2eeEID(let e2ee):
                w.key("eid")
                w.hex(e2ee.eid)
                w.key("hashedFlags")
                w.integer(e2ee.hashedFlags)
                type(beacon, &w)
            case .unknown(let frameType, let data):
                w.key("data")
                w.hex(data)
                w.key("frameType")
                w.integer(frameType)
                type(beacon, &w)
            }
        case .iBeacon(let b):
            w.key("major")
            w.integer(b.major)
            w.key("measuredPower")
            w.integer(b.measuredPowerDBm)
            w.key("minor")
            w.integer(b.minor)
            type(beacon, &w)
            w.key("uuid")
            uuid(b.uuid, &w)
        case .altBeacon(let b):
            w.key("beaconId")
            w.hex(b.beaconID)
            w.key("major")
            w.integer(UInt16(b.beaconID[16]) << 8 | UInt16(b.beaconID[17]))
            w.key("manufacturer")
            w.integer(b.manufacturer.rawValue)
            w.key("measuredPower")
            w.integer(b.referenceRSSIDBm)
            w.key("minor")
            w.integer(UInt16(b.beaconID[18]) << 8 | UInt16(b.beaconID[19]))
            w.key("reserved")
            w.integer(b.reserved)
            type(beacon, &w)
            w.key("uuid")
            uuid(b.beaconID.prefix(16), &w)
        case .token(.v1(let t)):
            w.key("flags")
            w.integer(t.flags)
            w.key("token")
            w.hex(t.token)
            w.key("txPower")
            w.integer(t.txPowerDBm)
            type(beacon, &w)
        case .token(.unknownVersion(let version, let data)):
            w.key("data")
            w.hex(data)
            type(beacon, &w)
            w.key("version")
            w.integer(version)
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
        w.key("type")
        w.string(beacon.typeName)
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
                out[n] = JSONWriter.hexDigit(byte >> 4)
                out[n + 1] = JSONWriter.hexDigit(byte & 0xF)
                n += 2
            }
            return n
        }
    }
}
