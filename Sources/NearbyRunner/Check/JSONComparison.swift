import NearbyJSON

/// Structural comparison of expected and actual JSON values. Numbers compare by value
/// (`-5.25` equals `-5.250`), so vectors may write them naturally; strings compare by their
/// UTF-8 bytes (not Swift's canonical equivalence: "café" precomposed and decomposed are
/// different messages, docs/spec/engine.md R4); everything else compares exactly, and object
/// keys must be the same sets.
public enum JSONComparison {
    /// The first difference as "PATH: expected X, got Y", or nil when equal.
    public static func firstDifference(expected: JSONValue, actual: JSONValue, path: String = "$") -> String? {
        switch (expected, actual) {
        case (.object(let e), .object(let a)):
            for key in Set(e.keys).union(a.keys).sorted() {
                switch (e[key], a[key]) {
                case let (x?, y?):
                    if let d = firstDifference(expected: x, actual: y, path: path + "." + key) { return d }
                case (let x?, nil): return "\(path).\(key): expected \(x.serialized), got nothing"
                case (nil, let y?): return "\(path).\(key): not expected, got \(y.serialized)"
                default: break
                }
            }
            return nil
        case (.array(let e), .array(let a)):
            for i in 0..<min(e.count, a.count) {
                if let d = firstDifference(expected: e[i], actual: a[i], path: "\(path)[\(i)]") { return d }
            }
            if e.count != a.count { return "\(path): expected \(e.count) items, got \(a.count)" }
            return nil
        default:
            if let x = number(expected), let y = number(actual) {
                return x == y ? nil : "\(path): expected \(expected.serialized), got \(actual.serialized)"
            }
            if case .string(let x) = expected, case .string(let y) = actual {
                return x.utf8.elementsEqual(y.utf8)
                    ? nil : "\(path): expected \(expected.serialized), got \(actual.serialized)"
            }
            return expected == actual ? nil : "\(path): expected \(expected.serialized), got \(actual.serialized)"
        }
    }

    static func number(_ v: JSONValue) -> Double? { v.numberValue }
}
