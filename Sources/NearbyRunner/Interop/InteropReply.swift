import NearbyJSON

/// Judges an implementation's reply to a vector (docs/interop.md §3) with the comparisons of
/// `check`. A reply of the wrong shape is a `malformed reply` error; `{"unsupported": WHY}`
/// skips the vector.
enum InteropReply {
    static func judge(_ v: Vector, reply o: [String: JSONValue], _ r: inout VectorResult) {
        func malformed(_ why: String) {
            r.status = .error
            r.message = "malformed reply: \(why)"
        }
        if let u = o["unsupported"] {
            r.status = .skipped
            r.message = "unsupported by the implementation" + (u.stringValue.map { ": \($0)" } ?? "")
            return
        }
        func array(_ key: String) -> [JSONValue]? {
            if case .array(let a)? = o[key] { return a }
            return nil
        }
        switch InteropLevel(vectorKind: v.kind) {
        case .frames:
            if let e = o["error"] {
                guard case .object(let eo) = e, let code = eo["code"]?.stringValue, let offset = eo["offset"]?.intValue else {
                    return malformed("\"error\" is {\"code\": \"layer/code\", \"offset\": N}")
                }
                return VectorComparison.frame(v, beacons: [], fault: (code, offset, eo["reason"]?.stringValue ?? ""),
                                              advertisement: nil, advertisementRequired: false, &r)
            }
            guard let beacons = array("beacons") else { return malformed("expected \"beacons\" (an array) or \"error\"") }
            var advertisement: [String: JSONValue]?
            if case .object(let a)? = o["advertisement"] { advertisement = a }
            VectorComparison.frame(v, beacons: beacons, fault: nil, advertisement: advertisement, advertisementRequired: false, &r)
        case .captures:
            guard let beacons = array("beacons") else { return malformed("expected \"beacons\" (an array)") }
            VectorComparison.capture(v, beacons: beacons, records: o["records"], &r)
        case .audio:
            guard let frames = array("frames") else { return malformed("expected \"frames\" (an array)") }
            VectorComparison.audio(v, frames: frames, &r)
        default:
            if case .refused = v.expectation {
                if let f = o["refused"] {
                    guard case .object(let fo) = f, let path = fo["path"]?.stringValue else {
                        return malformed("\"refused\" is {\"path\": JSON path, \"reason\": text}")
                    }
                    return VectorComparison.refusal(v, refusal: (path, fo["reason"]?.stringValue ?? ""), phraseMatters: false, &r)
                }
                guard array("events") != nil else { return malformed("expected \"refused\" or \"events\"") }
                return VectorComparison.refusal(v, refusal: nil, phraseMatters: false, &r)
            }
            if let f = o["refused"], case .object(let fo) = f {
                r.status = .fail
                r.message = "the scenario was refused at \(fo["path"]?.stringValue ?? "?"): \(fo["reason"]?.stringValue ?? "")"
                return
            }
            guard let events = array("events") else { return malformed("expected \"events\" (an array) or \"refused\"") }
            VectorComparison.events(v, got: events, &r)
        }
    }
}

extension JSONValue {
    var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    var intValue: Int? {
        switch self {
        case .integer(let n): return Int(exactly: n)
        case .number(let t): return Int(t)
        default: return nil
        }
    }
}
