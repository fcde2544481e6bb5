import NearbyBytes
import NearbyJSON
import NearbyMessages

/// A JSON value with its members in the order written, printed as Python's
/// `json.dumps(value, indent=2, ensure_ascii=False)` prints it (the project's vector files).
package indirect enum J: Equatable {
    case object([(String, J)])
    case array([J])
    case string(String)
    /// A number, already as its JSON text.
    case number(String)
    case bool(Bool)

    package static func == (a: J, b: J) -> Bool { a.text() == b.text() }

    package static func int(_ v: Int64) -> J { .number(String(v)) }

    /// Seconds from µs, exactly: `1`, `1.5`, `0.000001`, `-3.25`.
    package static func seconds(_ micros: Int64) -> J {
        let sign = micros < 0 ? "-" : ""
        let m = micros.magnitude
        var s = sign + String(m / 1_000_000)
        var frac = m % 1_000_000
        if frac != 0 {
            var digits = 6
            while frac % 10 == 0 {
                frac /= 10
                digits -= 1
            }
            let f = String(frac)
            s += "." + String(repeating: "0", count: digits - f.count) + f
        }
        return .number(s)
    }

    package func text(_ indent: Int = 0) -> String {
        let pad = String(repeating: " ", count: indent + 2), close = String(repeating: " ", count: indent)
        switch self {
        case .object(let members):
            if members.isEmpty { return "{}" }
            return "{\n"
                + members.map { pad + J.quote($0.0) + ": " + $0.1.text(indent + 2) }.joined(separator: ",\n")
                + "\n" + close + "}"
        case .array(let items):
            if items.isEmpty { return "[]" }
            return "[\n" + items.map { pad + $0.text(indent + 2) }.joined(separator: ",\n") + "\n" + close + "]"
        case .string(let s): return J.quote(s)
        case .number(let n): return n
        case .bool(let b): return b ? "true" : "false"
        }
    }

    package static func quote(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case _ where u.value < 0x20:
                let h = String(u.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - h.count) + h
            default: out.unicodeScalars.append(u)
            }
        }
        return out + "\""
    }
}

/// `ModelScenario` as a scenario file (docs/scenario-format.md), and events as `replay`
/// prints them (in a vector's `expect.events`).
package enum ModelScenarioJSON {
    package static func message(_ m: Message) -> J {
        var o: [(String, J)] = []
        if !m.namespace.isEmpty { o.append(("namespace", .string(m.namespace))) }
        if !m.type.isEmpty { o.append(("type", .string(m.type))) }
        o.append(("content", .string(Base64.encode(m.content))))
        return .object(o)
    }

    package static func mediums(_ m: DiscoveryMediums) -> J {
        .array((m.contains(.ble) ? [J.string("ble")] : []) + (m.contains(.audio) ? [.string("audio")] : []))
    }

    package static func interval(_ from: Int64?, _ until: Int64?) -> [(String, J)] {
        (from.map { [("from", J.seconds($0))] } ?? []) + (until.map { [("until", J.seconds($0))] } ?? [])
    }

    package static func registry(_ s: ModelScenario) -> J {
        var o: [(String, J)] = [("registry", .int(1))]
        if !s.publications.isEmpty {
            o.append(
                (
                    "publications",
                    .array(
                        s.publications.map { p in
                            .object(
                                [("id", .string(p.id)), ("message", message(p.message))]
                                    + interval(p.fromMicros, p.untilMicros)
                                    + [
                                        (
                                            "tokens",
                                            .array(
                                                p.tokens.map { a in
                                                    .object(
                                                        [("token", .string(Hex.encode(a.token)))]
                                                            + (a.mediums == .default
                                                                ? [] : [("mediums", mediums(a.mediums))])
                                                            + interval(a.fromMicros, a.untilMicros))
                                                })
                                        )
                                    ])
                        })
                ))
        }
        if !s.beacons.isEmpty {
            o.append(("beacons", .array(s.beacons.map(beacon))))
        }
        return .object(o)
    }

    package static func beacon(_ b: Registry.Beacon) -> J {
        var o: [(String, J)] = []
        if let e = b.ephemeralID {
            o.append(
                (
                    "advertisedId",
                    .object([("type", .string("EDDYSTONE_EID")), ("id", .string(Base64.encode(e.initialEID)))])
                ))
            let at: J =
                switch e.registeredAt {
                case .scenarioMicros(let m): .seconds(m)
                case .unixMicros(let u): .object([("unixSeconds", .seconds(u))])
                }
            o.append(
                (
                    "ephemeralIdRegistration",
                    .object([
                        ("beaconIdentityKey", .string(Base64.encode(e.identityKey))),
                        ("rotationPeriodExponent", .int(Int64(e.rotationExponent))),
                        ("initialClockValue", .int(Int64(e.initialClockValue))), ("registeredAt", at),
                    ])
                ))
        } else {
            let type =
                switch b.advertisedID.kind {
                case .iBeacon: "IBEACON"
                case .altBeacon: "ALTBEACON"
                default: "EDDYSTONE"
                }
            o.append(
                (
                    "advertisedId",
                    .object([("type", .string(type)), ("id", .string(Base64.encode(b.advertisedID.bytes)))])
                ))
        }
        o.append(
            (
                "attachments",
                .array(
                    b.attachments.map {
                        .object([
                            ("namespacedType", .string($0.namespace + "/" + $0.type)),
                            ("data", .string(Base64.encode($0.content))),
                        ])
                    })
            ))
        return .object(o)
    }

    package static func state(_ c: StateChange) -> J {
        var o: [(String, J)] = []
        if let v = c.nearbyPermission { o.append(("nearbyPermission", .string(v.rawValue))) }
        if let v = c.bluetoothPowerOn { o.append(("bluetoothPower", .string(v ? "on" : "off"))) }
        if let v = c.bluetoothPermission { o.append(("bluetoothPermission", .string(v.rawValue))) }
        if let v = c.microphonePermission { o.append(("microphonePermission", .string(v.rawValue))) }
        if let v = c.locationPermission { o.append(("locationPermission", .string(v.rawValue))) }
        if let v = c.appState { o.append(("appState", .string(v.rawValue))) }
        return .object(o)
    }

    package static func strategy(_ s: Strategy) -> J? {
        var o: [(String, J)] = []
        if s.mediums != .default { o.append(("discoveryMediums", mediums(s.mediums))) }
        if s.mode != .default {
            o.append(
                (
                    "discoveryMode",
                    .array(
                        (s.mode.contains(.broadcast) ? [J.string("broadcast")] : [])
                            + (s.mode.contains(.scan) ? [.string("scan")] : []))
                ))
        }
        if s.allowInBackground { o.append(("allowInBackground", .bool(true))) }
        switch s.ttl {
        case .infinite: o.append(("ttlSeconds", .string("infinite")))
        case .micros(let m) where m != 300_000_000: o.append(("ttlSeconds", .seconds(m)))
        default: break
        }
        return o.isEmpty ? nil : .object(o)
    }

    package static func action(_ a: EngineAction) -> (String, J) {
        switch a {
        case .subscribe(let id, let p):
            var o: [(String, J)] = [("id", .string(id))]
            if p.deviceTypes != .nearbyDevices {
                o.append(
                    (
                        "deviceTypesToDiscover",
                        .array(
                            (p.deviceTypes.contains(.nearbyDevices) ? [J.string("nearbyDevices")] : [])
                                + (p.deviceTypes.contains(.bleBeacons) ? [.string("bleBeacons")] : []))
                    ))
            }
            if !p.messageNamespace.isEmpty { o.append(("messageNamespace", .string(p.messageNamespace))) }
            if !p.type.isEmpty { o.append(("type", .string(p.type))) }
            if let s = strategy(p.strategy) { o.append(("strategy", s)) }
            let b = p.beaconStrategy
            var bo: [(String, J)] = []
            if !b.includeIBeacons { bo.append(("includeIBeacons", .bool(false))) }
            if !b.lowPowerPreferred { bo.append(("lowPowerPreferred", .bool(false))) }
            if b.allowInBackground { bo.append(("allowInBackground", .bool(true))) }
            if !bo.isEmpty { o.append(("beaconStrategy", .object(bo))) }
            if p.permissionRequestHandler { o.append(("permissionRequestHandler", .bool(true))) }
            return ("subscribe", .object(o))
        case .unsubscribe(let id): return ("unsubscribe", .string(id))
        case .publish(let id, let p):
            var o: [(String, J)] = [("id", .string(id)), ("message", message(p.message))]
            if let s = strategy(p.strategy) { o.append(("strategy", s)) }
            if p.permissionRequestHandler { o.append(("permissionRequestHandler", .bool(true))) }
            return ("publish", .object(o))
        case .unpublish(let id): return ("unpublish", .string(id))
        case .changeState(let c): return ("state", state(c))
        case .stopNearby: return ("stopNearby", .bool(true))
        case .answerPermission(let g): return ("permissionAnswer", .string(g ? "granted" : "denied"))
        case .terminate: return ("terminate", .bool(true))
        case .launch: return ("launch", .bool(true))
        }
    }

    package static func sighting(_ s: Sighting) -> J {
        let hex = J.string(Hex.encode(s.identity.bytes))
        switch s.identity.kind {
        case .token: return .object([("token", hex), ("medium", .string(s.medium == .ble ? "ble" : "audio"))])
        case .eddystoneUID: return .object([("eddystoneUid", hex)])
        case .iBeacon: return .object([("iBeacon", hex)])
        case .altBeacon: return .object([("altBeacon", hex)])
        case .eddystoneEID: return .object([("eddystoneEid", hex)])
        }
    }

    /// The scenario file; `captureSightings: false` leaves out the sightings marked for a
    /// capture (they go into the capture file instead).
    package static func scenario(_ s: ModelScenario, description: String? = nil, captureSightings: Bool = true) -> J {
        var o: [(String, J)] = [("scenario", .int(1))]
        if let d = description { o.append(("description", .string(d))) }
        if let l = s.lostTimeoutMicros { o.append(("lostTimeoutSeconds", .seconds(l))) }
        if !s.projectNamespace.isEmpty { o.append(("projectNamespace", .string(s.projectNamespace))) }
        if let l = s.lowPowerScan {
            o.append(
                (
                    "lowPowerScan",
                    .object([
                        ("windowSeconds", .seconds(l.windowMicros)), ("intervalSeconds", .seconds(l.intervalMicros)),
                    ])
                ))
        }
        if let u = s.originUnixMicros { o.append(("timeOrigin", .object([("unixSeconds", .seconds(u))]))) }
        if s.initial != StateChange() { o.append(("initialState", state(s.initial))) }
        if !s.publications.isEmpty || !s.beacons.isEmpty { o.append(("registry", registry(s))) }
        var events: [J] = []
        for input in s.inputs {
            switch input {
            case .action(let t, let a):
                let (k, v) = action(a)
                events.append(.object([("time", .seconds(t)), (k, v)]))
            case .sighting(let x, let c):
                if c && !captureSightings { continue }
                events.append(.object([("time", .seconds(x.timeMicros)), ("sighting", sighting(x))]))
            }
        }
        if !events.isEmpty { o.append(("events", .array(events))) }
        if let e = s.end { o.append(("end", .seconds(e))) }
        return .object(o)
    }

    /// An event as `replay` prints it (docs/scenario-format.md, "Output of replay").
    package static func event(_ e: ReferenceModel.Event) -> J {
        var o: [(String, J)] = [("time", .seconds(e.time)), ("event", .string(e.kind.rawValue))]
        if let id = e.id {
            o.append((e.publication ? "publication" : "subscription", .string(id)))
        }
        if let m = e.message {
            o.append(
                (
                    "message",
                    .object([
                        ("namespace", .string(m.namespace)), ("type", .string(m.type)),
                        ("content", .string(Base64.encode(m.content))),
                    ])
                ))
        }
        if let v = e.value {
            let key =
                switch e.kind {
                case .permissionChanged: "granted"
                case .permissionRequest: "custom"
                default: "hasError"
                }
            o.append((key, .bool(v)))
        }
        return .object(o)
    }

    /// Reads a scenario file's text with the product's reader.
    package static func read(_ text: String) throws -> Scenario {
        let root = JSONNode(try JSONParser.parse(text))
        var registryPath: String?
        return try Scenario(json: root, registryPath: &registryPath)
    }
}
