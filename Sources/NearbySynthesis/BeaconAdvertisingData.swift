import NearbyFormats

/// AD data of the beacon frames the synthesizer sends, laid out as docs/spec/eddystone.md and
/// docs/spec/ibeacon-altbeacon.md give them: Flags (LE General Discoverable, BR/EDR not
/// supported), then the frame.
public enum BeaconAdvertisingData {
    static let flags: [UInt8] = [0x02, 0x01, 0x06]

    /// Eddystone service data (EDDYSTONE-FRAME-2, EDDYSTONE-FRAME-5): Complete List of 16-bit
    /// UUIDs {0xFEAA}, then Service Data 0xFEAA carrying `frame`.
    static func eddystone(_ frame: [UInt8]) -> [UInt8] {
        flags + [0x03, 0x03, 0xAA, 0xFE, UInt8(3 + frame.count), 0x16, 0xAA, 0xFE] + frame
    }

    /// Eddystone-UID (EDDYSTONE-UID-1, EDDYSTONE-UID-3, EDDYSTONE-UID-4): frame type 0x00, Tx
    /// power at 0 m (dBm), 10-byte namespace, 6-byte instance, 2 reserved bytes 0.
    public static func eddystoneUID(namespace: [UInt8], instance: [UInt8], txPower: Int8) -> [UInt8] {
        eddystone([0x00, UInt8(bitPattern: txPower)] + namespace + instance + [0, 0])
    }

    /// Eddystone-URL (EDDYSTONE-URL-1, EDDYSTONE-URL-2, EDDYSTONE-URL-3): frame type 0x10, Tx
    /// power, scheme code, encoded URL.
    public static func eddystoneURL(encoded: [UInt8], txPower: Int8) -> [UInt8] {
        eddystone([0x10, UInt8(bitPattern: txPower)] + encoded)
    }

    /// Eddystone-TLM unencrypted (EDDYSTONE-TLM-1, EDDYSTONE-TLM-4, EDDYSTONE-TLM-6,
    /// EDDYSTONE-TLM-8, EDDYSTONE-TLM-9): frame type 0x20, version 0, battery mV, temperature
    /// in signed 8.8 fixed point °C, advertising count, uptime in 0.1 s; all big-endian.
    public static func eddystoneTLM(
        batteryMillivolts: UInt16, temperature88: Int16, advertisingCount: UInt32,
        uptimeTenths: UInt32
    ) -> [UInt8] {
        var f: [UInt8] = [0x20, 0x00]
        for (v, n) in [
            (UInt32(batteryMillivolts), 2), (UInt32(UInt16(bitPattern: temperature88)), 2),
            (advertisingCount, 4), (uptimeTenths, 4),
        ] {
            for i in (0..<n).reversed() { f.append(UInt8(truncatingIfNeeded: v >> (8 * UInt32(i)))) }
        }
        return eddystone(f)
    }

    /// Eddystone-EID (EDDYSTONE-EID-1, EDDYSTONE-EID-2): frame type 0x30, Tx power at 0 m, the
    /// 8-byte EID.
    public static func eddystoneEID(_ eid: [UInt8], txPower: Int8) -> [UInt8] {
        eddystone([0x30, UInt8(bitPattern: txPower)] + eid)
    }

    /// Any Eddystone frame given whole (an eTLM from `EncryptedTelemetry.encrypt`).
    public static func eddystoneFrame(_ serviceData: [UInt8]) -> [UInt8] {
        eddystone(serviceData)
    }

    /// iBeacon (IBEACON-2, IBEACON-5, IBEACON-6, IBEACON-7, IBEACON-9): manufacturer data
    /// 0x004C, type 0x02, length 0x15, UUID, major, minor (big-endian), measured power at 1 m.
    public static func iBeacon(uuidMajorMinor: [UInt8], measuredPower: Int8) -> [UInt8] {
        flags + [0x1A, 0xFF, 0x4C, 0x00, 0x02, 0x15] + uuidMajorMinor + [UInt8(bitPattern: measuredPower)]
    }

    /// AltBeacon (ALTBEACON-2, ALTBEACON-3, ALTBEACON-5, ALTBEACON-7, ALTBEACON-9):
    /// manufacturer data with the company id (little-endian), code 0xBEAC, the 20-byte beacon
    /// id, reference RSSI, one reserved byte.
    public static func altBeacon(manufacturer: UInt16, beaconID: [UInt8], referenceRSSI: Int8) -> [UInt8] {
        flags + [0x1B, 0xFF, UInt8(manufacturer & 0xFF), UInt8(manufacturer >> 8), 0xBE, 0xAC] + beaconID
            + [UInt8(bitPattern: referenceRSSI), 0x00]
    }

    /// Token advertisement v1 (docs/spec/ble-token.md).
    public static func token(_ token: [UInt8], txPower: Int8) -> [UInt8] {
        TokenAdvertisement(token: token, txPowerDBm: txPower).advertisingData
    }

    /// The Eddystone-URL encoding of `url` (the scheme prefixes and expansion codes of
    /// EDDYSTONE-URL-2, EDDYSTONE-URL-4, EDDYSTONE-URL-5), or nil when it has no known scheme,
    /// holds a byte the encoding reserves, or exceeds 17 bytes (EDDYSTONE-URL-11).
    public static func encodeURL(_ url: String) -> [UInt8]? {
        let schemes = ["http://www.", "https://www.", "http://", "https://"]
        guard let scheme = schemes.indices.first(where: { url.hasPrefix(schemes[$0]) }) else { return nil }
        let expansions = [
            ".com/", ".org/", ".edu/", ".net/", ".info/", ".biz/", ".gov/",
            ".com", ".org", ".edu", ".net", ".info", ".biz", ".gov",
        ]
        var rest = Substring(url.dropFirst(schemes[scheme].count))
        var out: [UInt8] = [UInt8(scheme)]
        while !rest.isEmpty {
            if let code = expansions.indices.first(where: { rest.hasPrefix(expansions[$0]) }) {
                out.append(UInt8(code))
                rest = rest.dropFirst(expansions[code].count)
            } else {
                let c = rest.utf8.first!
                guard (0x21...0x7E).contains(c) else { return nil }
                out.append(c)
                rest = rest.dropFirst()
            }
        }
        return out.count <= 18 ? out : nil
    }
}
