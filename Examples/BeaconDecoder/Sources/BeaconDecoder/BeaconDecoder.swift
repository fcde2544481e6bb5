/// A small decoder of the two beacons most apps look for, written from the formats alone:
/// iBeacon (Apple's manufacturer data) and Eddystone-UID (service data on 0xFEAA).
///
/// It decodes AD data and nothing else, and it does not say where a frame is malformed: any
/// structure it cannot read makes it report no beacon at all.
public enum BeaconDecoder {
    /// A beacon this decoder knows.
    public enum Beacon: Sendable, Hashable {
        /// iBeacon: proximity UUID (16 bytes), major, minor, measured power at 1 m (dBm).
        case iBeacon(uuid: [UInt8], major: UInt16, minor: UInt16, measuredPower: Int8)
        /// Eddystone-UID: Tx power at 0 m (dBm), namespace (10 bytes), instance (6 bytes).
        case eddystoneUID(txPower: Int8, namespace: [UInt8], instance: [UInt8])
    }

    /// The beacons in `adData`, in the order of their AD structures; nil when the data is
    /// malformed anywhere.
    public static func beacons(in adData: [UInt8]) -> [Beacon]? {
        var beacons: [Beacon] = []
        var i = 0
        while i < adData.count {
            let length = Int(adData[i])
            if length == 0 { break }  // the rest is padding
            guard i + 1 + length <= adData.count else { return nil }  // the length overruns
            let type = adData[i + 1]
            let data = Array(adData[(i + 2)..<(i + 1 + length)])
            switch type {
            case 0x16:  // Service Data, 16-bit UUID (little endian first)
                guard data.count >= 2 else { return nil }
                if data[0] == 0xAA && data[1] == 0xFE {
                    guard let frame = eddystone(Array(data[2...])) else { return nil }
                    if let frame { beacons.append(frame) }
                }
            case 0xFF:  // Manufacturer Specific Data, company identifier first
                guard data.count >= 2 else { return nil }
                if data[0] == 0x4C && data[1] == 0x00 && data.count >= 4 && data[2] == 0x02 && data[3] == 0x15 {
                    guard data.count == 25 else { return nil }
                    beacons.append(
                        .iBeacon(
                            uuid: Array(data[4..<20]), major: UInt16(data[20]) << 8 | UInt16(data[21]),
                            minor: UInt16(data[22]) << 8 | UInt16(data[23]), measuredPower: Int8(bitPattern: data[24])))
                }
            case 0x0A:  // Tx Power Level: exactly one byte
                guard data.count == 1 else { return nil }
            default:
                break
            }
            i += 1 + length
        }
        return beacons
    }

    /// An Eddystone frame: `.some(beacon)` for a UID, `.some(nil)` for another valid frame
    /// type this decoder passes over, nil when the frame is malformed.
    static func eddystone(_ frame: [UInt8]) -> Beacon?? {
        guard let type = frame.first else { return nil }
        guard type == 0x00 else { return .some(nil) }
        guard (18...20).contains(frame.count) else { return nil }
        return .some(
            .eddystoneUID(
                txPower: Int8(bitPattern: frame[1]), namespace: Array(frame[2..<12]), instance: Array(frame[12..<18])))
    }
}
