import NearbyJSON

/// A beacon frame found in an advertisement: its type and its fields, named and written as
/// `nearby-conformance decode` prints them (docs/decode-output.md, "Beacon objects").
///
/// ```swift
/// let frame = Frame.adData(bytes).decoded()
/// if let b = frame.beacons.first, b.type == .iBeacon {
///     print(b["uuid"]?.string ?? "", b["major"]?.integer ?? 0)
/// }
/// ```
public struct Beacon: Sendable, Hashable {
    /// The frame's type (the `type` field).
    public var type: BeaconType
    /// Every field but `type`: for an iBeacon `uuid`, `major`, `minor`, `measuredPower`; in a
    /// capture also `record`, the record it came from (from 1).
    public var fields: [String: FieldValue]

    /// Makes a beacon (an implementation under test answers with these).
    public init(type: BeaconType, fields: [String: FieldValue]) {
        self.type = type
        self.fields = fields
        self.fields["type"] = nil
    }

    /// The field named `name`, or nil when the beacon has none (`"type"` gives the type).
    public subscript(name: String) -> FieldValue? {
        name == "type" ? .string(type.rawValue) : fields[name]
    }

    /// The beacon as `decode` prints it: one JSON object with `type`, keys sorted.
    public var jsonText: String { json.serialized }

    package init(_ json: JSONValue) {
        var fields = [String: FieldValue](json)
        let type = fields["type"]?.string ?? ""
        fields["type"] = nil
        self.init(type: BeaconType(rawValue: type), fields: fields)
    }

    package var json: JSONValue {
        var o = fields.mapValues(\.json)
        o["type"] = .string(type.rawValue)
        return .object(o)
    }
}
