import NearbyJSON
import NearbyMessages

/// The JSON form of engine events, shared by `replay` output and vectors:
/// `{"event", "time", "subscription"?, "publication"?, "message"?: {"namespace", "type",
/// "content" (base64)}, "granted"?, "hasError"?, "custom"?}`, keys sorted, time in seconds with
/// six decimals in the scenario's time base.
public enum EventJSON {
    /// Writes the event's object, keys in the order of their UTF-8 bytes; with `kind`, a
    /// `kind` member (`replay --explain` tells its lines apart by it).
    package static func write(_ e: EngineEvent, to w: inout JSONWriter, kind: StaticString? = nil) {
        w.beginObject()
        // The boolean's key sorts before "event" (custom) or after it (granted, hasError).
        if let v = e.value, e.kind == .permissionRequest {
            w.member("custom", v)
        }
        w.member("event", string: e.kind.rawValue)
        if let v = e.value, e.kind != .permissionRequest {
            if e.kind == .permissionChanged { w.key("granted") } else { w.key("hasError") }
            w.bool(v)
        }
        if let kind { w.member("kind", plain: kind) }
        if let m = e.message {
            w.key("message")
            writeMessage(m, to: &w)
        }
        if let p = e.publication {
            w.member("publication", string: p)
        }
        if let s = e.subscription {
            w.member("subscription", string: s)
        }
        w.key("time")
        w.seconds(micros: e.timeMicros)
        w.endObject()
    }

    /// A message's object: `content` (base64), `namespace`, `type`.
    package static func writeMessage(_ m: Message, to w: inout JSONWriter) {
        w.beginObject()
        w.member("content", string: Base64.encode(m.content))
        w.member("namespace", string: m.namespace)
        w.member("type", string: m.type)
        w.endObject()
    }

    /// The event's object as a value tree (for comparisons; output goes through `write`).
    public static func object(_ e: EngineEvent) -> JSONValue {
        var w = JSONWriter(capacity: 256)
        write(e, to: &w)
        return try! JSONParser.parse(w.bytes)
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
}
