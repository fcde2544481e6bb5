import NearbyDecode
import NearbyJSON
import NearbyMessages

/// The readable form of engine events: `replay --format table`'s rows, and the timeline's
/// hover text. Columns: time (seconds, six decimals), event, subscription or publication,
/// then the message (`namespace/type base64`) or the boolean (`granted=`, `hasError=`,
/// `custom=`).
public enum EventText {
    /// The table's first line: `time origin 2026-01-01T00:00:00.000000Z (Unix 1767225600.000000);
    /// times are seconds after it`.
    public static func originLine(unixMicros: Int64) -> String {
        "time origin \(CivilTime.iso8601(micros: unixMicros)) (Unix "
            + JSONValue.seconds(micros: unixMicros).serialized + "); times are seconds after it"
    }

    public static func row(_ e: EngineEvent) -> String {
        func pad(_ s: String, _ n: Int) -> String { s.count >= n ? s : s + String(repeating: " ", count: n - s.count) }
        var cols = [
            pad(JSONValue.seconds(micros: e.timeMicros).serialized, 14), pad(e.kind.rawValue, 26),
            pad(e.subscription ?? e.publication ?? "", 12),
        ]
        if let m = e.message {
            cols.append(message(m))
        } else if let v = e.value {
            cols.append("\(EventJSON.valueKey(e.kind))=\(v)")
        }
        var row = cols.joined(separator: " ")
        while row.last == " " { row.removeLast() }
        return row
    }

    /// `namespace/type base64-content`.
    public static func message(_ m: Message) -> String {
        "\(m.namespace)/\(m.type) \(Base64.encode(m.content))"
    }
}
