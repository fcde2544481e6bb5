import NearbyBytes
import NearbyFormats
import NearbyJSON

/// The JSON object of one beacon frame in `decode` output. Identifiers are lower-case hex,
/// UUIDs lower-case with dashes, powers in dBm, times in seconds.
public enum BeaconJSON {
    public static func object(_ beacon: BeaconFrame) -> JSONValue {
        var o: [String: JSONValue] = ["type": .string(beacon.typeName)]
        switch beacon {
        case .eddystone(let frame):
            switch frame {
            case .uid(let uid):
                o["txPower"] = .int(uid.txPowerDBm)
                o["namespace"] = .string(Hex.encode(uid.namespace))
                o["instance"] = .string(Hex.encode(uid.instance))
                if !uid.reserved.isEmpty { o["reserved"] = .string(Hex.encode(uid.reserved)) }
            case .url(let url):
                o["txPower"] = .int(url.txPowerDBm)
                o["url"] = url.url.map { .string($0) } ?? .null
                o["scheme"] = .int(url.scheme)
                o["encodedUrl"] = .string(Hex.encode(url.encoded))
                let reserved = url.reservedBytes
                if !reserved.isEmpty {
                    o["reservedBytes"] = .array(
                        reserved.map {
                            .object(["offset": .int($0.offset), "value": .int($0.value)])
                        })
                }
            case .tlm(let tlm):
                o["version"] = .int(0)
                o["batteryMillivolts"] = .optionalInt(tlm.batteryMillivolts)
                o["temperatureCelsius"] = tlm.temperatureCelsius.map { .double($0) } ?? .null
                o["advertisingCount"] = .int(tlm.advertisingCount)
                o["uptimeSeconds"] = .number(String(tlm.uptimeTenths / 10) + "." + String(tlm.uptimeTenths % 10))
            case .tlmUnknownVersion(let version, let data):
                o["version"] = .int(version)
                o["data"] = .string(Hex.encode(data))
            case .encryptedTLM(let etlm):
                o["version"] = .int(1)
                o["encryptedTlm"] = .string(Hex.encode(etlm.ciphertext))
                o["salt"] = .string(Hex.encode(etlm.salt))
                o["mic"] = .string(Hex.encode(etlm.mic))
                if let pad = etlm.nordicPadding { o["nordicPadding"] = .int(pad) }
            case .eid(let eid):
                o["txPower"] = .int(eid.txPowerDBm)
                o["eid"] = .string(Hex.encode(eid.eid))
            case .e2eeEID(let e2ee):
                o["eid"] = .string(Hex.encode(e2ee.eid))
                o["hashedFlags"] = .optionalInt(e2ee.hashedFlags)
            case .unknown(let frameType, let data):
                o["frameType"] = .int(frameType)
                o["data"] = .string(Hex.encode(data))
            }
        case .iBeacon(let b):
            o["uuid"] = .string(uuidText(b.uuid))
            o["major"] = .int(b.major)
            o["minor"] = .int(b.minor)
            o["measuredPower"] = .int(b.measuredPowerDBm)
        case .altBeacon(let b):
            o["manufacturer"] = .int(b.manufacturer.rawValue)
            o["beaconId"] = .string(Hex.encode(b.beaconID))
            o["uuid"] = .string(uuidText(Array(b.beaconID[0..<16])))
            o["major"] = .int(UInt16(b.beaconID[16]) << 8 | UInt16(b.beaconID[17]))
            o["minor"] = .int(UInt16(b.beaconID[18]) << 8 | UInt16(b.beaconID[19]))
            o["measuredPower"] = .int(b.referenceRSSIDBm)
            o["reserved"] = .optionalInt(b.reserved)
        case .token(.v1(let t)):
            o["token"] = .string(Hex.encode(t.token))
            o["txPower"] = .int(t.txPowerDBm)
            o["flags"] = .int(t.flags)
        case .token(.unknownVersion(let version, let data)):
            o["version"] = .int(version)
            o["data"] = .string(Hex.encode(data))
        }
        return .object(o)
    }

    /// 16 bytes as `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`, lower case.
    public static func uuidText<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        let h = Array(Hex.encode(bytes))
        return String(h[0..<8]) + "-" + String(h[8..<12]) + "-" + String(h[12..<16]) + "-" + String(h[16..<20]) + "-"
            + String(h[20..<32])
    }
}
