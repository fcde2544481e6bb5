import Foundation

/// The plugin fields that show a beacon object of `decode` (docs/decode-output.md), as
/// TShark prints them: written from the field list of issue #28 and the Wireshark field
/// types it names (integers in decimal, `base.HEX` integers as 0x and two digits per byte,
/// byte strings as colon-separated hex, GUIDs with dashes). A nil value is a field that
/// must be absent.
enum DissectorFields {
    static func expected(for beacon: [String: Any]) -> [String: String?] {
        let type = beacon["type"] as? String ?? ""
        var f: [String: String?] = ["nearby.type": type]
        func int(_ key: String) -> Int? { (beacon[key] as? NSNumber)?.intValue }
        func dec(_ key: String) -> String? { int(key).map { String($0) } }
        func hex(_ key: String, digits: Int = 2) -> String? {
            guard let value = int(key) else { return nil }
            let text = String(value, radix: 16)
            return "0x" + String(repeating: "0", count: max(0, digits - text.count)) + text
        }
        func bytes(_ key: String) -> String? {
            guard let text = beacon[key] as? String, !text.isEmpty else { return nil }
            return stride(from: 0, to: text.count, by: 2).map { i in
                let start = text.index(text.startIndex, offsetBy: i)
                return String(text[start..<text.index(start, offsetBy: 2)])
            }.joined(separator: ":")
        }
        let e = "nearby.eddystone."
        switch type {
        case "eddystone-uid":
            f[e + "frame_type"] = "0x00"
            f[e + "tx_power"] = dec("txPower")
            f[e + "namespace"] = bytes("namespace")
            f[e + "instance"] = bytes("instance")
            f[e + "reserved"] = .some(bytes("reserved"))
        case "eddystone-url":
            f[e + "frame_type"] = "0x10"
            f[e + "tx_power"] = dec("txPower")
            f[e + "url_scheme"] = hex("scheme")
            f[e + "encoded_url"] = .some(bytes("encodedUrl"))
            f[e + "url"] = .some(beacon["url"] as? String)
        case "eddystone-tlm" where int("version") == 0:
            f[e + "frame_type"] = "0x20"
            f[e + "tlm.version"] = "0"
            // decode says null for 0 mV ("not supported"); the plugin shows the 0.
            f[e + "tlm.battery_mv"] = dec("batteryMillivolts") ?? "0"
            f[e + "tlm.temperature"] = .some((beacon["temperatureCelsius"] as? NSNumber).map { "\($0.doubleValue)" })
            f[e + "tlm.adv_count"] = dec("advertisingCount")
            f[e + "tlm.uptime"] = (beacon["uptimeSeconds"] as? NSNumber).map {
                String(Int(($0.doubleValue * 10).rounded()))
            }
        case "eddystone-tlm":
            f[e + "frame_type"] = "0x20"
            f[e + "tlm.version"] = dec("version")
            f[e + "data"] = bytes("data")
        case "eddystone-etlm":
            f[e + "frame_type"] = "0x20"
            f[e + "tlm.version"] = "1"
            f[e + "etlm.data"] = bytes("encryptedTlm")
            f[e + "etlm.salt"] = bytes("salt")
            f[e + "etlm.mic"] = bytes("mic")
            f[e + "etlm.nordic_rfu"] = .some(hex("nordicPadding"))
        case "eddystone-eid":
            f[e + "frame_type"] = "0x30"
            f[e + "tx_power"] = dec("txPower")
            f[e + "eid"] = bytes("eid")
        case "eddystone-e2ee-eid":
            f[e + "frame_type"] = "0x40"
            f[e + "e2ee.eid"] = bytes("eid")
            f[e + "e2ee.hashed_flags"] = .some(hex("hashedFlags"))
        case "eddystone-unknown":
            f[e + "frame_type"] = hex("frameType")
            f[e + "data"] = bytes("data")
        case "ibeacon":
            f["nearby.ibeacon.uuid"] = beacon["uuid"] as? String
            f["nearby.ibeacon.major"] = dec("major")
            f["nearby.ibeacon.minor"] = dec("minor")
            f["nearby.ibeacon.power"] = dec("measuredPower")
        case "altbeacon":
            f["nearby.altbeacon.manufacturer"] = hex("manufacturer", digits: 4)
            f["nearby.altbeacon.id"] = bytes("beaconId")
            f["nearby.altbeacon.reference_rssi"] = dec("measuredPower")
            f["nearby.altbeacon.reserved"] = .some(hex("reserved"))
        case "token-v1":
            f["nearby.token.version"] = "1"
            f["nearby.token.flags"] = hex("flags")
            f["nearby.token.token"] = bytes("token")
            f["nearby.token.length"] = (beacon["token"] as? String).map { String($0.count / 2) }
            f["nearby.token.tx_power"] = dec("txPower")
        case "token-unknown":
            f["nearby.token.version"] = dec("version")
            f["nearby.token.data"] = .some(bytes("data"))
        default:
            f["nearby.type"] = "a type the plugin's field list does not name: \(type)"
        }
        return f
    }
}
