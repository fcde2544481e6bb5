import NearbyBytes
import NearbyJSON

/// One advertisement of a capture: a line of `nearby-conformance decode`, as values
/// (docs/decode-output.md, "Lines").
public struct CapturedAdvertisement: Sendable, Hashable {
    /// Every field of the line: `file`, `record`, `time`, `source`, `eventType`, `address`,
    /// `addressType`, `rssi`, `txPower`, `channel`, `data`, `ad` (every AD structure: flags,
    /// names, UUIDs, service and manufacturer data with the company's name, …), `beacons`,
    /// `extended`, `errors`.
    public var fields: [String: FieldValue]
    /// The beacon frames in its AD data, in AD order, each with its `record`.
    public var beacons: [Beacon]

    init(_ json: JSONValue) {
        fields = [String: FieldValue](json)
        let record = fields["record"] ?? .null
        var beacons: [Beacon] = []
        if case .array(let list)? = fields["beacons"] {
            for case .object(var o) in list {
                o["record"] = record
                beacons.append(Beacon(FieldValue.object(o).json))
            }
        }
        self.beacons = beacons
    }

    /// The record it came from, from 1 (Wireshark's frame number).
    public var record: Int { fields["record"]?.integer.map { Int($0) } ?? 0 }
    /// Seconds since the Unix epoch (microsecond resolution); nil for hex text, which has no times.
    public var time: Double? { fields["time"]?.number }
    /// The advertiser's address, `aa:bb:cc:dd:ee:ff`, lower case.
    public var address: String? { fields["address"]?.string }
    /// The received signal strength in dBm; nil when the capture has none.
    public var rssi: Int? { fields["rssi"]?.integer.map { Int($0) } }
    /// The AD data, bytes.
    public var adData: [UInt8] { fields["data"]?.string.flatMap { Hex.decode($0) } ?? [] }

    /// The line as `decode` prints it (keys sorted; `time` reformatted to its shortest form).
    public var jsonText: String { FieldValue.object(fields).jsonText }
}
