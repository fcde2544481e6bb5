import NearbyJSON

/// Compares an expected event sequence with the emitted one. Two events match when every
/// field but `time` is equal (event, subscription, publication, message, granted, hasError, custom)
/// and the times differ by at most the tolerance.
public enum EventComparison {
    public struct Divergence: Sendable {
        /// Index of the first event that differs.
        public var index: Int
        public var expected: JSONValue?
        public var got: JSONValue?
        public var reason: String
    }

    public static func firstDivergence(expected: [JSONValue], got: [JSONValue], toleranceMicros: Int64) -> Divergence? {
        for i in 0..<max(expected.count, got.count) {
            let e = i < expected.count ? expected[i] : nil
            let g = i < got.count ? got[i] : nil
            guard let e, let g else {
                return Divergence(
                    index: i, expected: e, got: g,
                    reason: e == nil ? "an extra event was emitted" : "an expected event was not emitted")
            }
            guard case .object(var eo) = e, case .object(var go) = g else {
                return Divergence(index: i, expected: e, got: g, reason: "not an event object")
            }
            let et = eo.removeValue(forKey: "time"), gt = go.removeValue(forKey: "time")
            if let d = JSONComparison.firstDifference(expected: .object(eo), actual: .object(go)) {
                return Divergence(index: i, expected: e, got: g, reason: d)
            }
            let em = et.flatMap(micros), gm = gt.flatMap(micros)
            if let em, let gm {
                if abs(em - gm) > toleranceMicros {
                    return Divergence(
                        index: i, expected: e, got: g,
                        reason:
                            "time differs by \(JSONValue.seconds(micros: abs(em - gm)).serialized) s, tolerance "
                            + "\(JSONValue.seconds(micros: toleranceMicros).serialized) s"
                    )
                }
            } else if et != gt {
                return Divergence(index: i, expected: e, got: g, reason: "time missing")
            }
        }
        return nil
    }

    package static func micros(_ v: JSONValue) -> Int64? {
        switch v {
        case .number(let s): JSONNode.exactMicros(s)
        case .integer(let i): i.multipliedReportingOverflow(by: 1_000_000).overflow ? nil : i * 1_000_000
        default: nil
        }
    }
}
