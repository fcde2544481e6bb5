import NearbyJSON

/// One callback of a replay: a line of `nearby-conformance replay` as values
/// (docs/scenario-format.md, "Output of `replay`").
public struct ReplayEvent: Sendable, Hashable {
    /// Every field of the line: `event`, `time`, and as the event has them `subscription`,
    /// `publication`, `message` (`namespace`, `type`, `content` in base64), `granted`,
    /// `hasError`, `custom`.
    public var fields: [String: FieldValue]
    /// The line as `replay` prints it (keys sorted, time with six decimals).
    public var jsonText: String

    init(_ json: JSONValue) {
        fields = [String: FieldValue](json)
        jsonText = json.serialized
    }

    /// The callback: `found`, `lost`, `permissionChanged`, `bluetoothPowerError`, …
    public var kind: String { fields["event"]?.string ?? "" }
    /// Scenario time in seconds (microsecond resolution).
    public var time: Double { fields["time"]?.number ?? 0 }
    /// The subscription it was delivered to, if any.
    public var subscription: String? { fields["subscription"]?.string }
    /// The message's namespace and type, for `found` and `lost`.
    public var message: (namespace: String, type: String)? {
        guard case .object(let m)? = fields["message"], let n = m["namespace"]?.string, let t = m["type"]?.string
        else { return nil }
        return (n, t)
    }
}
