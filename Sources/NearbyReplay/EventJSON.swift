import NearbyJSON
import NearbyMessages

/// The JSON form of engine events, shared by `replay` output and vectors:
/// `{"event", "time", "subscription"?, "publication"?, "message"?: {"namespace", "type",
/// "content" (base64)}, "granted"?, "hasError"?, "custom"?}`, keys sorted, time in seconds with
/// six decimals in the scenario's time base.
public enum EventJSON {
    public static func object(_ e: EngineEvent) -> JSONValue {
        var o: [String: JSONValue] = ["event": .string(e.kind.rawValue), "time": .seconds(micros: e.timeMicros)]
        if let s = e.subscription { o["subscription"] = .string(s) }
        if let p = e.publication { o["publication"] = .string(p) }
        if let m = e.message { o["message"] = message(m) }
        if let v = e.value { o[valueKey(e.kind)] = .bool(v) }
        return .object(o)
    }

    /// The name of an event's boolean: `granted` (permissionChanged), `custom`
    /// (permissionRequest: the app's own dialog), `hasError` (the error handlers).
    public static func valueKey(_ kind: EngineEvent.Kind) -> String {
        switch kind {
        case .permissionChanged: "granted"
        case .permissionRequest: "custom"
        default: "hasError"
        }
    }

    public static func message(_ m: Message) -> JSONValue {
        .object([
            "namespace": .string(m.namespace), "type": .string(m.type), "content": .string(Base64.encode(m.content)),
        ])
    }
}
