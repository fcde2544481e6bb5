import NearbyBytes
import NearbyJSON

extension SurveyEntry {
    /// The header row of `survey --format table`.
    public static let tableHeader =
        PrintfText.padded("kind", to: 10) + "  " + PrintfText.padded("type", to: 18) + "  " + "  count  "
        + PrintfText.padded("first", to: 27) + "  " + PrintfText.padded("last", to: 27) + "  "
        + PrintfText.padded("rssi min/med/max", to: 16) + "  " + PrintfText.padded("interval", to: 10) + "  identity"

    /// The row: kind (10), type (18), count (7, right-aligned), first and last heard (ISO
    /// 8601, 27 each, `-` without times), RSSI min/median/max (dBm, 16), interval (s, 10),
    /// then the identity (`key=value …`) and the addresses (beacons) or the frames, names and
    /// companies (advertisers).
    public var tableRow: String {
        func time(_ micros: Int64?) -> String {
            PrintfText.padded(micros.map { CivilTime.iso8601(micros: $0) } ?? "-", to: 27)
        }
        let rssiText = rssi.map { "\($0.min)/\($0.median)/\($0.max)" } ?? "-"
        let interval = intervalMicros.map { PrintfText.format("%.3f", Double($0) / 1e6) } ?? "-"
        var text =
            PrintfText.padded(kind.rawValue, to: 10) + "  " + PrintfText.padded(type, to: 18) + "  "
            + PrintfText.format("%7d", count) + "  " + time(firstMicros) + "  " + time(lastMicros) + "  "
            + PrintfText.padded(rssiText, to: 16) + "  " + PrintfText.padded(interval, to: 10) + "  "
            + identity.keys.sorted().map { "\($0)=\(identity[$0]!.serialized)" }.joined(separator: " ")
        switch kind {
        case .beacon:
            text += "  addresses=" + addresses.sorted().joined(separator: ",")
        case .advertiser:
            text += "  frames=" + frames.keys.sorted().map { "\($0):\(frames[$0]!)" }.joined(separator: ",")
            if !names.isEmpty { text += "  names=" + JSONValue.array(names.sorted().map(JSONValue.string)).serialized }
            if !companies.isEmpty {
                text += "  companies=" + JSONValue.array(companies.sorted().map(JSONValue.string)).serialized
            }
        }
        return text
    }
}
