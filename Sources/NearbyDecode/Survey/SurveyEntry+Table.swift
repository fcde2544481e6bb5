import NearbyBytes
import NearbyJSON
import NearbyText

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
        PrintfText.padded(kind.rawValue, to: 10) + "  " + PrintfText.padded(type, to: 18) + "  "
            + PrintfText.format("%7d", count) + "  " + PrintfText.padded(Self.time(firstMicros), to: 27) + "  "
            + PrintfText.padded(Self.time(lastMicros), to: 27) + "  " + PrintfText.padded(rssiText, to: 16) + "  "
            + PrintfText.padded(intervalText, to: 10) + "  " + identityText + "  " + heardWithText
    }

    /// The columns of `cells`, as the HTML report heads them.
    public static let cellColumns = [
        "kind", "type", "identity", "count", "first heard", "last heard", "RSSI min/median/max (dBm)",
        "interval (s)", "addresses, or frames, names and companies",
    ]

    /// The row as the HTML report's cells, in `cellColumns`' order, with the table's texts.
    public var cells: [String] {
        [
            kind.rawValue, type, identityText, String(count), Self.time(firstMicros), Self.time(lastMicros), rssiText,
            intervalText, heardWithText,
        ]
    }

    static func time(_ micros: Int64?) -> String { micros.map { CivilTime.iso8601(micros: $0) } ?? "-" }

    var rssiText: String { rssi.map { "\($0.min)/\($0.median)/\($0.max)" } ?? "-" }

    var intervalText: String { intervalMicros.map { PrintfText.format("%.3f", Double($0) / 1e6) } ?? "-" }

    var identityText: String {
        identity.keys.sorted().map { "\($0)=\(identity[$0]!.serialized)" }.joined(separator: " ")
    }

    /// `addresses=…` (beacons) or `frames=… names=[…] companies=[…]` (advertisers).
    var heardWithText: String {
        switch kind {
        case .beacon:
            return "addresses=" + addresses.sorted().joined(separator: ",")
        case .advertiser:
            var text = "frames=" + frames.keys.sorted().map { "\($0):\(frames[$0]!)" }.joined(separator: ",")
            if !names.isEmpty { text += "  names=" + JSONValue.array(names.sorted().map(JSONValue.string)).serialized }
            if !companies.isEmpty {
                text += "  companies=" + JSONValue.array(companies.sorted().map(JSONValue.string)).serialized
            }
            return text
        }
    }
}
