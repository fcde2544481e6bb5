import NearbyConformance
import NearbyJSON

extension ConformanceReply {
    /// The reply the interop protocol carries (without its `id`): INTEROP-19 to INTEROP-24.
    var json: [String: JSONValue] {
        switch self {
        case .frame(let d):
            if let f = d.fault {
                return [
                    "error": .object([
                        "code": .string(f.code), "offset": .integer(Int64(f.offset)), "reason": .string(f.reason),
                    ])
                ]
            }
            var o: [String: JSONValue] = ["beacons": .array(d.beacons.map(\.json))]
            if let a = d.advertisement { o["advertisement"] = .object(a.mapValues(\.json)) }
            return o
        case .capture(let beacons, let records):
            var o: [String: JSONValue] = ["beacons": .array(beacons.map(\.json))]
            if let r = records {
                o["records"] = .object([
                    "read": .integer(Int64(r.read)), "decoded": .integer(Int64(r.decoded)),
                    "ignored": .integer(Int64(r.ignored)), "malformed": .integer(Int64(r.malformed)),
                    "skippedBytes": .integer(r.skippedBytes),
                    "resynchronizations": .integer(Int64(r.resynchronizations)),
                ])
            }
            return o
        case .audio(let frames): return ["frames": .array(frames.map(\.json))]
        case .events(let events): return ["events": .array(events.map(\.json))]
        case .refused(let path, let reason):
            return ["refused": .object(["path": .string(path), "reason": .string(reason)])]
        case .unsupported(let why): return ["unsupported": .string(why)]
        }
    }

    /// A reply of the interop protocol (the reference adapter's) as a value.
    init(fields o: [String: JSONValue]) {
        func array(_ key: String) -> [JSONValue]? {
            if case .array(let a)? = o[key] { return a }
            return nil
        }
        if case .string(let why)? = o["unsupported"] {
            self = .unsupported(why)
        } else if case .object(let e)? = o["error"] {
            let fault = DecodeFault(
                code: FieldValue(e["code"] ?? .null).string ?? "",
                offset: Int(FieldValue(e["offset"] ?? .null).integer ?? 0),
                reason: FieldValue(e["reason"] ?? .null).string ?? "")
            self = .frame(DecodedFrame(beacons: [], fault: fault))
        } else if case .object(let r)? = o["refused"] {
            self = .refused(
                path: FieldValue(r["path"] ?? .null).string ?? "", reason: FieldValue(r["reason"] ?? .null).string ?? ""
            )
        } else if let events = array("events") {
            self = .events(events.map(FieldValue.init))
        } else if let frames = array("frames") {
            self = .audio(frames: frames.map(FieldValue.init))
        } else if let beacons = array("beacons"), let records = o["records"] {
            let r = [String: FieldValue](records)
            func count(_ key: String) -> Int { Int(r[key]?.integer ?? 0) }
            self = .capture(
                beacons: beacons.map(Beacon.init),
                records: RecordCounts(
                    read: count("read"), decoded: count("decoded"), ignored: count("ignored"),
                    malformed: count("malformed"), skippedBytes: Int64(count("skippedBytes")),
                    resynchronizations: count("resynchronizations")))
        } else if let beacons = array("beacons") {
            self = .frame(
                DecodedFrame(
                    beacons: beacons.map(Beacon.init),
                    advertisement: o["advertisement"].map { [String: FieldValue]($0) }))
        } else {
            self = .unsupported("the reply has none of beacons, error, frames, events, refused")
        }
    }
}
