import NearbyBytes
import NearbyJSON
import NearbyText

/// The comparisons of Vectors/README.md, "How results are compared", on results given as
/// JSON: shared by `check` (the reference decoder and engine) and `validate` (an
/// implementation's replies, docs/spec/interop.md). Each sets the result to `fail` with the first
/// divergence and its context, or leaves it passing.
package enum VectorComparison {
    /// Judges a result against every reading the vector allows (`expectation`, then the
    /// `alternatives` of an `acceptable` vector): `judge` compares with one reading. The first
    /// reading that does not fail decides; when all fail, the failure against the first is
    /// reported, with a line saying the others did not match either.
    package static func anyReading(_ v: Vector, _ r: inout VectorResult, _ judge: (Vector, inout VectorResult) -> Void)
    {
        guard !v.alternatives.isEmpty else { return judge(v, &r) }
        var first: VectorResult?
        for (i, e) in v.expectations.enumerated() {
            var reading = v
            reading.expectation = e
            reading.alternatives = []
            var attempt = r
            judge(reading, &attempt)
            if attempt.status != .fail {
                r = attempt
                if i > 0 && r.status == .pass && r.message.isEmpty {
                    r.message = "matched acceptable reading \(i + 1) of \(v.expectations.count)"
                }
                return
            }
            if first == nil { first = attempt }
        }
        r = first!
        r.details.append("the vector's \(v.alternatives.count) other acceptable reading(s) do not match either")
    }

    /// A frame vector: the beacons decoded, the first fault (`layer/code`, offset, reason),
    /// and the first advertisement's fields. An implementation may not report the
    /// advertisement (`advertisementRequired` false): its fields are then not compared.
    package static func frame(
        _ v: Vector, beacons: [JSONValue], fault: (key: String, offset: Int, reason: String)?,
        advertisement: [String: JSONValue]?, advertisementRequired: Bool, _ r: inout VectorResult
    ) {
        switch v.expectation {
        case .error(let key, let offset):
            guard let e = fault else {
                return fail(
                    &r, "expected \(key) at offset \(offset), but it decoded without a fault",
                    ["got beacons: " + JSONValue.array(beacons).serialized])
            }
            if e.key != key || e.offset != offset {
                fail(
                    &r, "expected \(key) at offset \(offset), got \(e.key) at offset \(e.offset)",
                    e.reason.isEmpty ? [] : ["reason: \(e.reason)"])
            }
        case .beacons(let expected, let fields):
            if let e = fault {
                return fail(
                    &r,
                    "expected a clean decode, got \(e.key) at offset \(e.offset)"
                        + (e.reason.isEmpty ? "" : ": \(e.reason)"))
            }
            let got = JSONValue.array(beacons)
            if let d = JSONComparison.firstDifference(expected: .array(expected), actual: got, path: "beacons") {
                return fail(
                    &r, d, ["expected: " + JSONValue.array(expected).serialized, "got:      " + got.serialized])
            }
            guard !fields.isEmpty else { return }
            guard let o = advertisement else {
                if advertisementRequired { fail(&r, "expected an advertisement, got none") }
                return
            }
            // A field expected null must be null or absent (`directAddress` of an undirected report).
            let actual = JSONValue.object(Dictionary(uniqueKeysWithValues: fields.keys.map { ($0, o[$0] ?? .null) }))
            if let d = JSONComparison.firstDifference(expected: .object(fields), actual: actual, path: "advertisement")
            {
                fail(&r, d)
            }
        default:
            fail(&r, "internal: a frame vector with a non-frame expectation")
        }
    }

    /// A capture vector: every beacon with its record, and (when given) the accounting.
    package static func capture(
        _ v: Vector, beacons: [JSONValue], records: JSONValue?, recordDetails: [String] = [], _ r: inout VectorResult
    ) {
        guard case .capture(let expected, let expectedRecords) = v.expectation else {
            return fail(&r, "internal: not a capture expectation")
        }
        var records = records
        if case .object(var o)? = records {
            // The damage counts are compared where the vector gives them.
            for key in Vector.optionalRecordCounts where expectedRecords[key] == nil { o[key] = nil }
            records = .object(o)
        }
        if let records,
            let d = JSONComparison.firstDifference(expected: .object(expectedRecords), actual: records, path: "records")
        {
            return fail(&r, d, recordDetails)
        }
        for i in 0..<max(expected.count, beacons.count) {
            let e = i < expected.count ? expected[i] : nil, g = i < beacons.count ? beacons[i] : nil
            guard let e, let g else {
                return fail(
                    &r,
                    e == nil
                        ? "beacons[\(i)]: an extra beacon was decoded"
                        : "beacons[\(i)]: an expected beacon was not decoded",
                    ["expected: " + (e?.serialized ?? "nothing"), "got:      " + (g?.serialized ?? "nothing")])
            }
            if let d = JSONComparison.firstDifference(expected: e, actual: g, path: "beacons[\(i)]") {
                return fail(&r, d, ["expected: " + e.serialized, "got:      " + g.serialized])
            }
        }
    }

    /// An audio vector: frame i matches when token, mode and (if expected) channel are equal
    /// and the start is within the tolerance. `got` frames are objects with `token` (hex),
    /// `mode`, `start` (seconds) and optionally `channel`.
    package static func audio(_ v: Vector, frames got: [JSONValue], _ r: inout VectorResult) {
        guard case .audioFrames(let expected) = v.expectation else {
            return fail(&r, "internal: not an audio expectation")
        }
        let tolerance = Double(v.toleranceMicros) / 1e6
        func number(_ j: JSONValue?) -> Double? { j?.numberValue }
        for i in 0..<max(expected.count, got.count) {
            let e = i < expected.count ? expected[i] : nil, g = i < got.count ? got[i] : nil
            var context: [String] = [
                "expected: " + (e?.serialized ?? "no frame"), "got:      " + (g?.serialized ?? "no frame"),
            ]
            if i > 0, i - 1 < got.count { context.append("after:    " + got[i - 1].serialized) }
            guard let e, let g, case .object(let o) = e else {
                return fail(
                    &r,
                    e == nil
                        ? "frames[\(i)]: an extra frame was decoded"
                        : "frames[\(i)]: an expected frame was not decoded", context)
            }
            guard case .object(let go) = g else { return fail(&r, "frames[\(i)]: not an object", context) }
            let gotToken: String = if case .string(let t)? = go["token"] { t.lowercased() } else { "(none)" }
            let gotMode: String = if case .string(let m)? = go["mode"] { m } else { "(none)" }
            if case .string(let token)? = o["token"], token.lowercased() != gotToken {
                return fail(&r, "frames[\(i)].token: expected \(token), got \(gotToken)", context)
            }
            if case .string(let mode)? = o["mode"], mode != gotMode {
                return fail(&r, "frames[\(i)].mode: expected \(mode), got \(gotMode)", context)
            }
            if let c = o["channel"],
                JSONComparison.firstDifference(expected: c, actual: go["channel"] ?? .null, path: "") != nil
            {
                return fail(
                    &r, "frames[\(i)].channel: expected \(c.serialized), got \((go["channel"] ?? .null).serialized)",
                    context)
            }
            if let start = number(o["start"]) {
                guard let gs = number(go["start"]) else { return fail(&r, "frames[\(i)].start: missing", context) }
                if abs(gs - start) > tolerance {
                    return fail(
                        &r,
                        "frames[\(i)].start: expected \(o["start"]!.serialized) ± \(tolerance) s, got "
                            + "\(PrintfText.format("%.6f", gs))",
                        context)
                }
            }
        }
    }

    /// A scenario vector: the events, compared by EventComparison. Returns the divergence so
    /// the caller can add the inputs around it.
    @discardableResult
    package static func events(_ v: Vector, got: [JSONValue], _ r: inout VectorResult) -> EventComparison.Divergence? {
        guard case .events(let expected) = v.expectation else {
            fail(&r, "internal: not a scenario expectation")
            return nil
        }
        guard let d = EventComparison.firstDivergence(expected: expected, got: got, toleranceMicros: v.toleranceMicros)
        else { return nil }
        var details = [
            "expected: " + (d.expected?.serialized ?? "no event"), "got:      " + (d.got?.serialized ?? "no event"),
        ]
        if d.index > 0 { details.append("after:    " + got[d.index - 1].serialized) }
        fail(&r, "event #\(d.index + 1): \(d.reason)", details)
        return d
    }

    /// A scenario that must be refused: `refusal` is where and why it was (nil: accepted).
    /// `phraseMatters` is false for implementations, whose wording is their own.
    package static func refusal(
        _ v: Vector, refusal: (path: String, reason: String)?, phraseMatters: Bool, _ r: inout VectorResult
    ) {
        guard case .refused(let path, let phrase) = v.expectation else {
            return fail(&r, "internal: not a refusal expectation")
        }
        guard let got = refusal else {
            return fail(&r, "expected the scenario to be refused at \(path) (\"\(phrase)\"), but it was accepted")
        }
        if got.path != path || (phraseMatters && !got.reason.contains(phrase)) {
            fail(
                &r, "expected a refusal at \(path) (\"\(phrase)\"), got one at \(got.path)",
                ["expected: \(path): …\(phrase)…", "got:      \(got.path): \(got.reason)"])
        }
    }

    package static func fail(_ r: inout VectorResult, _ message: String, _ details: [String] = []) {
        r.status = .fail
        r.message = message
        r.details = details
    }
}
