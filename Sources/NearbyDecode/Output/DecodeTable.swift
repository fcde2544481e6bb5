import Foundation
import NearbyAudio
import NearbyBytes
import NearbyFormats

/// The `decode --format table` lines (docs/decode-output.md): aligned columns for people,
/// one line per advertisement or sound-file frame, and the accounting under `--summary`.
public enum DecodeTable {
    /// One advertisement: record (7, right-aligned), time (ISO 8601, 27), address (17),
    /// address type (15), RSSI in dBm (4, right-aligned), event type (15), then its beacons
    /// (or its AD errors), each column followed by two spaces.
    public static func row(_ d: DecodedAdvertisement) -> String {
        let a = d.advertisement
        func col(_ s: String, _ w: Int, right: Bool = false) -> String {
            let pad = String(repeating: " ", count: max(0, w - s.count))
            return right ? pad + s : s + pad
        }
        let time = a.timestampMicros.map(CivilTime.iso8601(micros:)) ?? "-"
        let beacons = d.beacons.map(Self.beaconSummary).joined(separator: "; ")
        let errors = d.contents.errors.map { "! \($0.key) at \($0.offset)" }.joined(separator: "; ")
        return [
            col(String(a.record), 7, right: true), col(time, 27), col(a.address.description, 17),
            col(a.addressType.description, 15), col(a.rssiDBm.map { String($0) } ?? "-", 4, right: true),
            col(a.eventTypeName, 15), beacons.isEmpty ? errors : beacons + (errors.isEmpty ? "" : "; " + errors),
        ]
        .joined(separator: "  ")
    }

    static func beaconSummary(_ beacon: BeaconFrame) -> String {
        guard case .object(let o) = BeaconJSON.object(beacon) else { return beacon.typeName }
        let fields = o.keys.filter { $0 != "type" }.sorted().map { key in "\(key)=\(o[key]!.serialized)" }
        return ([beacon.typeName] + fields).joined(separator: " ")
    }

    /// A file's (or the run's) accounting in two or three lines.
    public static func summary(_ a: DecodeAccounting) -> String {
        func list(_ d: [String: Int]) -> String {
            d.isEmpty ? "" : " (" + d.keys.sorted().map { "\($0) \(d[$0]!)" }.joined(separator: ", ") + ")"
        }
        let beacons = a.beaconsByType.isEmpty ? " 0" : list(a.beaconsByType)
        return """
            records read \(a.recordsRead): decoded \(a.decoded), ignored \(a.ignored)\(list(a.ignoredByReason)), \
            malformed \(a.malformed)\(list(a.malformedByReason))
            advertisements \(a.advertisements) with AD data, \(a.advertisementsWithoutData) without, \
            \(a.truncatedAdvertisements) truncated; beacons\(beacons)
            """
                + (a.bytesSkipped > 0
                    ? "\nskipped \(a.bytesSkipped) bytes of damage, \(a.resynchronizations) "
                        + "resynchronisation\(a.resynchronizations == 1 ? "" : "s")"
                    : "")
    }

    /// One sound-file frame: start and end (s, 6 decimals, 11 wide), mode (9), token (hex,
    /// 32), SNR (dB, 1 decimal), clock offset (ppm, 1 decimal), bytes corrected, channel.
    public static func row(_ f: AudioTokenFrame) -> String {
        [
            String(format: "%11.6f", f.start), String(format: "%11.6f", f.end),
            f.mode.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0),
            Hex.encode(f.token).padding(toLength: 32, withPad: " ", startingAt: 0), String(format: "%6.1f dB", f.snrDb),
            String(format: "%8.1f ppm", f.clockOffsetPpm), "rs \(f.correctedBytes)", "ch \(f.channel)",
        ].joined(separator: "  ")
    }
}
