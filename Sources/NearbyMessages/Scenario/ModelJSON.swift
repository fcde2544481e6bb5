import NearbyBytes
import NearbyJSON

/// Readers for the model's JSON forms, shared by scenario and registry files
/// (docs/scenario-format.md). Each names the JSON path of whatever it rejects.
public enum ModelJSON {
    /// Seconds in the scenario's time base: 0 … 10^10 s (about 317 years).
    public static let timeRange: ClosedRange<Int64> = 0...10_000_000_000_000_000

    public static func time(_ n: JSONNode) throws(JSONInputError) -> Int64 {
        try n.microseconds(in: timeRange)
    }

    public static func hex(_ n: JSONNode, lengths: [Int]) throws(JSONInputError) -> [UInt8] {
        let s = try n.string()
        guard let bytes = Hex.decode(s) else { throw n.fail("\"\(s)\" is not hex (an even number of 0-9 a-f digits)") }
        guard lengths.contains(bytes.count) else {
            throw n.fail("\(bytes.count) bytes; expected \(lengths.map(String.init).joined(separator: " or "))")
        }
        return bytes
    }

    public static func base64(_ n: JSONNode) throws(JSONInputError) -> [UInt8] {
        let s = try n.string()
        guard let bytes = Base64.decode(s) else { throw n.fail("not standard padded base64 (RFC 4648 §4)") }
        return bytes
    }

    /// A message type: a string of at most `Message.maximumTypeLength` UTF-16 units
    /// (ENGINE-V1), refused at its own path.
    public static func type(_ n: JSONNode) throws(JSONInputError) -> String {
        try type(try n.string(), at: n)
    }

    /// `type`, already read from `n` (or from part of it, as a `namespacedType`), checked
    /// against `Message.maximumTypeLength` (ENGINE-V1); a longer one is refused at `n`'s path.
    public static func type(_ type: String, at n: JSONNode) throws(JSONInputError) -> String {
        if let why = Message(namespace: "", type: type, content: []).violation { throw n.fail(why) }
        return type
    }

    /// Message content: standard padded base64 of at most `Message.maximumContentBytes`
    /// bytes (ENGINE-V1), refused at its own path.
    public static func content(_ n: JSONNode) throws(JSONInputError) -> [UInt8] {
        let bytes = try base64(n)
        if let why = Message(namespace: "", type: "", content: bytes).violation { throw n.fail(why) }
        return bytes
    }

    /// `{"namespace": "", "type": "", "content": BASE64}`; a type or content over the limits
    /// of ENGINE-V1 is refused at `…type` or `…content`.
    public static func message(_ n: JSONNode) throws(JSONInputError) -> Message {
        let o = try n.object(allowed: ["namespace", "type", "content"])
        return Message(
            namespace: try o.optional("namespace")?.string() ?? "",
            type: try o.optional("type").map { (t) throws(JSONInputError) in try type(t) } ?? "",
            content: try content(try o.required("content")))
    }

    public static func mediums(_ n: JSONNode) throws(JSONInputError) -> DiscoveryMediums {
        var m: DiscoveryMediums = []
        for item in try n.array() {
            m.insert(try item.choice(["ble", "audio"]) == "ble" ? .ble : .audio)
        }
        if m.isEmpty { throw n.fail("name at least one medium") }
        return m
    }

    /// `{"discoveryMediums": ["ble","audio"], "discoveryMode": ["broadcast","scan"],
    /// "allowInBackground": false, "ttlSeconds": 300 | "infinite"}`, all optional.
    public static func strategy(_ n: JSONNode?, allowInfinite: Bool) throws(JSONInputError) -> Strategy {
        var s = Strategy()
        guard let n else { return s }
        let o = try n.object(allowed: ["discoveryMediums", "discoveryMode", "allowInBackground", "ttlSeconds"])
        if let m = o.optional("discoveryMediums") { s.mediums = try mediums(m) }
        if let m = o.optional("discoveryMode") {
            var mode: DiscoveryMode = []
            for item in try m.array() {
                mode.insert(try item.choice(["broadcast", "scan"]) == "scan" ? .scan : .broadcast)
            }
            if mode.isEmpty { throw m.fail("name at least one mode") }
            s.mode = mode
        }
        if let b = o.optional("allowInBackground") { s.allowInBackground = try b.bool() }
        if let t = o.optional("ttlSeconds") {
            if case .string = t.value {
                _ = try t.choice(["infinite"])
                guard allowInfinite else {
                    throw t.fail(
                        "a publication cannot have an infinite TTL (TTL_SECONDS_INFINITE is only for subscriptions)")
                }
                s.ttl = .infinite
            } else {
                s.ttl = .micros(try t.microseconds(in: 1...TimeToLive.maximumMicros))
            }
        }
        return s
    }

    public static func subscription(_ n: JSONNode) throws(JSONInputError) -> (String, SubscriptionParams) {
        let o = try n.object(allowed: [
            "id", "deviceTypesToDiscover", "messageNamespace", "type", "strategy", "beaconStrategy",
            "permissionRequestHandler",
        ])
        let id = try o.required("id").string()
        var p = SubscriptionParams()
        if let d = o.optional("deviceTypesToDiscover") {
            var types: DeviceTypes = []
            for item in try d.array() {
                types.insert(
                    try item.choice(["nearbyDevices", "bleBeacons"]) == "nearbyDevices" ? .nearbyDevices : .bleBeacons)
            }
            if types.isEmpty { throw d.fail("name at least one device type") }
            p.deviceTypes = types
        }
        if let v = o.optional("messageNamespace") { p.messageNamespace = try v.string() }
        if let v = o.optional("type") { p.type = try type(v) }
        p.strategy = try strategy(o.optional("strategy"), allowInfinite: true)
        if let b = o.optional("beaconStrategy") {
            let bo = try b.object(allowed: ["includeIBeacons", "lowPowerPreferred", "allowInBackground"])
            if let v = bo.optional("includeIBeacons") { p.beaconStrategy.includeIBeacons = try v.bool() }
            if let v = bo.optional("lowPowerPreferred") { p.beaconStrategy.lowPowerPreferred = try v.bool() }
            if let v = bo.optional("allowInBackground") { p.beaconStrategy.allowInBackground = try v.bool() }
        }
        if let v = o.optional("permissionRequestHandler") { p.permissionRequestHandler = try v.bool() }
        return (id, p)
    }

    public static func publication(_ n: JSONNode) throws(JSONInputError) -> (String, PublicationParams) {
        let o = try n.object(allowed: ["id", "message", "strategy", "permissionRequestHandler"])
        return (
            try o.required("id").string(),
            PublicationParams(
                message: try message(o.required("message")),
                strategy: try strategy(o.optional("strategy"), allowInfinite: false),
                permissionRequestHandler: try o.optional("permissionRequestHandler")?.bool() ?? false)
        )
    }

    public static func permission(_ n: JSONNode) throws(JSONInputError) -> PermissionState {
        PermissionState(rawValue: try n.choice(PermissionState.allCases.map(\.rawValue)))!
    }

    /// `"notDetermined"`, `"denied"`, `"whenInUse"` or `"always"`; `"granted"`, the name
    /// scenario files used before location had iOS's four states, means `"always"`.
    public static func locationPermission(_ n: JSONNode) throws(JSONInputError) -> LocationPermission {
        let v = try n.choice(LocationPermission.allCases.map(\.rawValue) + ["granted"])
        return v == "granted" ? .always : LocationPermission(rawValue: v)!
    }

    /// `{"windowSeconds": 0.512, "intervalSeconds": 5.12}`, both optional: the low-power beacon
    /// scan's duty cycle (ENGINE-A6); the window is at most the interval.
    public static func lowPowerScan(_ n: JSONNode) throws(JSONInputError) -> LowPowerScan {
        let o = try n.object(allowed: ["windowSeconds", "intervalSeconds"])
        var scan = LowPowerScan()
        if let v = o.optional("intervalSeconds") {
            scan.intervalMicros = try v.microseconds(in: 1...TimeToLive.maximumMicros)
        }
        if let v = o.optional("windowSeconds") {
            scan.windowMicros = try v.microseconds(in: 1...TimeToLive.maximumMicros)
            if scan.windowMicros > scan.intervalMicros { throw v.fail("the window is longer than the interval") }
        } else {
            scan.windowMicros = min(scan.windowMicros, scan.intervalMicros)
        }
        return scan
    }

    /// `{"nearbyPermission", "bluetoothPower": "on"|"off", "bluetoothPermission",
    /// "microphonePermission", "locationPermission", "appState"}`; at least one field.
    public static func stateChange(_ n: JSONNode) throws(JSONInputError) -> StateChange {
        let o = try n.object(allowed: [
            "nearbyPermission", "bluetoothPower", "bluetoothPermission",
            "microphonePermission", "locationPermission", "appState",
        ])
        var c = StateChange()
        if let v = o.optional("nearbyPermission") { c.nearbyPermission = try permission(v) }
        if let v = o.optional("bluetoothPower") { c.bluetoothPowerOn = try v.choice(["on", "off"]) == "on" }
        if let v = o.optional("bluetoothPermission") { c.bluetoothPermission = try permission(v) }
        if let v = o.optional("microphonePermission") { c.microphonePermission = try permission(v) }
        if let v = o.optional("locationPermission") { c.locationPermission = try locationPermission(v) }
        if let v = o.optional("appState") {
            c.appState = AppState(rawValue: try v.choice(AppState.allCases.map(\.rawValue)))!
        }
        if o.fields.isEmpty { throw n.fail("a state change must set at least one field") }
        return c
    }

    /// `{"token": HEX, "medium": "ble"|"audio"}` or `{"eddystoneUid": HEX32}` or
    /// `{"iBeacon": HEX40}` or `{"altBeacon": HEX40}` or `{"eddystoneEid": HEX16}`, with an
    /// optional `"rssi"` (dBm).
    public static func sighting(_ n: JSONNode, at time: Int64) throws(JSONInputError) -> Sighting {
        let o = try n.object(allowed: [
            "token", "medium", "eddystoneUid", "iBeacon", "altBeacon", "eddystoneEid", "rssi",
        ])
        let kinds = ["token", "eddystoneUid", "iBeacon", "altBeacon", "eddystoneEid"].filter(o.has)
        guard kinds.count == 1 else {
            throw n.fail("give exactly one of token, eddystoneUid, iBeacon, altBeacon, eddystoneEid")
        }
        var medium = Medium.ble
        if let m = o.optional("medium") {
            guard kinds[0] == "token" else { throw m.fail("only a token sighting has a medium (beacons are BLE)") }
            medium = try m.choice(["ble", "audio"]) == "ble" ? .ble : .audio
        }
        let v = try o.required(kinds[0])
        let identity: SightingIdentity =
            switch kinds[0] {
            case "token": SightingIdentity(.token, try hex(v, lengths: [6, 8, 9, 10, 11, 12, 13, 14, 15, 16]))
            case "eddystoneUid": SightingIdentity(.eddystoneUID, try hex(v, lengths: [16]))
            case "iBeacon": SightingIdentity(.iBeacon, try hex(v, lengths: [20]))
            case "altBeacon": SightingIdentity(.altBeacon, try hex(v, lengths: [20]))
            default: SightingIdentity(.eddystoneEID, try hex(v, lengths: [8]))
            }
        let rssi = try o.optional("rssi").map { (r) throws(JSONInputError) in Int8(try r.integer(in: -128...127)) }
        return Sighting(timeMicros: time, medium: medium, identity: identity, rssiDBm: rssi)
    }
}
