import NearbyJSON
import NearbyRunner

/// Judges an implementation's reply to a vector (INTEROP-25 to INTEROP-29) with the comparisons of
/// `check`, restricted to what the implementation reports (`coverage`). A reply of the wrong
/// shape is a `malformed reply` error; `{"unsupported": WHY}` skips the vector.
enum InteropReply {
    /// Judges the reply against every reading the vector allows (an `acceptable` vector has
    /// several): the first that does not fail decides.
    static func judge(
        _ v: Vector, reply o: [String: JSONValue], coverage: InteropCoverage = .everything, _ r: inout VectorResult
    ) {
        VectorComparison.anyReading(v, &r) { v, r in judgeReading(v, reply: o, coverage: coverage, &r) }
    }

    static func judgeReading(
        _ v: Vector, reply o: [String: JSONValue], coverage: InteropCoverage, _ r: inout VectorResult
    ) {
        func malformed(_ why: String) {
            r.status = .error
            r.message = "malformed reply: \(why)"
        }
        if let u = o["unsupported"] {
            r.status = .skipped
            r.message = "unsupported by the implementation" + (u.stringValue.map { ": \($0)" } ?? "")
            return
        }
        func skip(_ r: inout VectorResult, _ why: String) {
            r.status = .skipped
            r.message = why
        }
        func array(_ key: String) -> [JSONValue]? {
            if case .array(let a)? = o[key] { return a }
            return nil
        }
        switch InteropLevel(v.kind) {
        case .frames:
            var v = v
            switch v.expectation {
            case .error(let key, let offset):
                guard coverage.covers(faultCode: key) else {
                    return skip(
                        &r,
                        "the vector expects a \(key) fault; the implementation decodes no "
                            + "\(key.split(separator: "/")[0]) beacon"
                    )
                }
                if !coverage.locatesFaults, o["error"] == nil, let beacons = array("beacons") {
                    let decoded = coverage.restrict(beacons)
                    guard decoded.isEmpty else {
                        return VectorComparison.fail(
                            &r, "expected \(key) at offset \(offset), but it decoded without a fault",
                            ["got beacons: " + JSONValue.array(decoded).serialized])
                    }
                    r.message = "rejected without a fault location (the implementation reports none)"
                    return
                }
            case .beacons(let expected, let advertisement):
                let kept = coverage.restrict(expected)
                if kept.isEmpty && !expected.isEmpty {
                    return skip(&r, Self.undecoded("the vector's", expected, coverage))
                }
                let fields = coverage.advertisementFields
                v.expectation = .beacons(
                    kept,
                    advertisement: fields.map { f in advertisement.filter { f.contains($0.key) } } ?? advertisement)
            default: break
            }
            if let e = o["error"] {
                guard case .object(let eo) = e, let code = eo["code"]?.stringValue, let offset = eo["offset"]?.intValue
                else {
                    return malformed("\"error\" is {\"code\": \"layer/code\", \"offset\": N}")
                }
                return VectorComparison.frame(
                    v, beacons: [], fault: (code, offset, eo["reason"]?.stringValue ?? ""),
                    advertisement: nil, advertisementRequired: false, &r)
            }
            guard let beacons = array("beacons") else {
                return malformed("expected \"beacons\" (an array) or \"error\"")
            }
            var advertisement: [String: JSONValue]?
            if case .object(let a)? = o["advertisement"] { advertisement = a }
            VectorComparison.frame(
                v, beacons: coverage.restrict(beacons), fault: nil, advertisement: advertisement,
                advertisementRequired: false, &r)
        case .captures:
            guard let beacons = array("beacons") else { return malformed("expected \"beacons\" (an array)") }
            var v = v
            if case .capture(let expected, let records) = v.expectation {
                let kept = coverage.restrict(expected)
                // With none of its beacons decoded, a capture is still judged on the record
                // counts, when the reply gives them.
                if kept.isEmpty && !expected.isEmpty && o["records"] == nil {
                    return skip(&r, Self.undecoded("the capture's", expected, coverage))
                }
                let counts = coverage.recordCounts
                v.expectation = .capture(
                    beacons: kept, records: counts.map { c in records.filter { c.contains($0.key) } } ?? records)
            }
            VectorComparison.capture(
                v, beacons: coverage.restrict(beacons), records: coverage.restrict(records: o["records"]), &r)
        case .audio:
            guard let frames = array("frames") else { return malformed("expected \"frames\" (an array)") }
            VectorComparison.audio(v, frames: frames, &r)
        default:
            if case .refused = v.expectation {
                if let f = o["refused"] {
                    guard case .object(let fo) = f, let path = fo["path"]?.stringValue else {
                        return malformed("\"refused\" is {\"path\": JSON path, \"reason\": text}")
                    }
                    return VectorComparison.refusal(
                        v, refusal: (path, fo["reason"]?.stringValue ?? ""), phraseMatters: false, &r)
                }
                guard array("events") != nil else { return malformed("expected \"refused\" or \"events\"") }
                return VectorComparison.refusal(v, refusal: nil, phraseMatters: false, &r)
            }
            if let f = o["refused"], case .object(let fo) = f {
                r.status = .fail
                r.message =
                    "the scenario was refused at \(fo["path"]?.stringValue ?? "?"): \(fo["reason"]?.stringValue ?? "")"
                return
            }
            guard let events = array("events") else {
                return malformed("expected \"events\" (an array) or \"refused\"")
            }
            VectorComparison.events(v, got: events, &r)
        }
    }

    /// Why a vector whose beacons are all of types the implementation does not decode is
    /// skipped: "`whose` beacons (TYPES) are of types the implementation does not decode".
    static func undecoded(_ whose: String, _ expected: [JSONValue], _ coverage: InteropCoverage) -> String {
        let types = coverage.undecodedTypes(expected).joined(separator: ", ")
        return "\(whose) beacons (\(types)) are of types the implementation does not decode"
    }
}
