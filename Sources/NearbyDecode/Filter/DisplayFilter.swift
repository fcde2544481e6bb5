import NearbyJSON

/// A display filter over `decode`'s lines, as TShark's `-Y` filters frames
/// (docs/decode-output.md, "Display filters"): `beacon.type == "ibeacon" && beacon.major == 100
/// && rssi > -70`.
///
/// Grammar (`||` binds loosest; `and`, `or`, `not` are the words for `&&`, `||`, `!`):
///
///     filter     := or
///     or         := and ( "||" and )*
///     and        := unary ( "&&" unary )*
///     unary      := "!" unary | "(" filter ")" | comparison
///     comparison := field [ ( "==" | "!=" | "<" | "<=" | ">" | ">=" | "contains" | "matches" ) value ]
///     value      := number | "string" | true | false | null
///     field      := name ( "." name )*
///
/// A field alone is true when the line has it. `beacon.NAME` is a field of any of the line's
/// beacons and `ad.NAME` of any of its AD structures, as a field that occurs several times in
/// TShark: each comparison holds when one occurrence satisfies it. `contains` and `matches`
/// (a regular expression, searched) are for text.
public struct DisplayFilter: Sendable {
    /// Why a filter cannot be read: the position (from 0, in characters) and the reason.
    public struct SyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
        public var position: Int
        public var reason: String
        public var description: String { "at character \(position + 1): \(reason)" }
    }

    /// A comparison's operator.
    enum Operator: String, Sendable {
        case equal = "=="
        case notEqual = "!="
        case less = "<"
        case lessOrEqual = "<="
        case greater = ">"
        case greaterOrEqual = ">="
        case contains
        case matches
    }

    indirect enum Node: Sendable {
        case or(Node, Node)
        case and(Node, Node)
        case not(Node)
        case exists(Field)
        case compare(Field, Operator, JSONValue, Pattern?)
    }

    /// A compiled `matches` pattern. Regex is not declared Sendable; it is never mutated after
    /// it is built, and matching reads it only.
    final class Pattern: @unchecked Sendable {
        let regex: Regex<AnyRegexOutput>
        init(_ regex: Regex<AnyRegexOutput>) { self.regex = regex }
    }

    /// A field: where in a line it is.
    struct Field: Sendable {
        /// `beacons` or `ad` for the repeated objects, nil for the line's own members.
        var repeated: String?
        var path: [String]
        var text: String
    }

    let root: Node
    /// The filter as given.
    public let text: String
    /// The members of a line the filter reads (`beacons` and `ad` for their fields): what
    /// `matches` needs of a line, the others left out.
    package let memberNames: [String]

    /// Reads `text`; throws `SyntaxError` with the position of the first thing it cannot read
    /// (a field `decode` does not print is one).
    public init(_ text: String) throws(SyntaxError) {
        self.text = text
        var p = DisplayFilterParser(text)
        root = try p.filter()
        var names: Set<String> = []
        func collect(_ node: Node) {
            switch node {
            case .or(let a, let b), .and(let a, let b):
                collect(a)
                collect(b)
            case .not(let a): collect(a)
            case .exists(let f), .compare(let f, _, _, _): names.insert(f.repeated ?? f.path[0])
            }
        }
        collect(root)
        memberNames = names.sorted()
    }

    /// Whether a line (a `decode` JSON object) passes the filter.
    public func matches(_ line: [String: JSONValue]) -> Bool { Self.evaluate(root, line) }

    static func evaluate(_ node: Node, _ line: [String: JSONValue]) -> Bool {
        switch node {
        case .or(let a, let b): return evaluate(a, line) || evaluate(b, line)
        case .and(let a, let b): return evaluate(a, line) && evaluate(b, line)
        case .not(let a): return !evaluate(a, line)
        case .exists(let f): return values(f, line).contains { $0 != .null }
        case .compare(let f, let op, let value, let regex):
            return values(f, line).contains { compare($0, op, value, regex) }
        }
    }

    /// Every occurrence of `f` in the line.
    static func values(_ f: Field, _ line: [String: JSONValue]) -> [JSONValue] {
        func follow(_ value: JSONValue?, _ path: ArraySlice<String>) -> JSONValue? {
            guard let first = path.first else { return value }
            guard case .object(let o)? = value else { return nil }
            return follow(o[first], path.dropFirst())
        }
        guard let repeated = f.repeated else { return follow(.object(line), f.path[...]).map { [$0] } ?? [] }
        guard case .array(let items)? = line[repeated] else { return [] }
        return items.compactMap { follow($0, f.path[...]) }
    }

    static func compare(_ a: JSONValue, _ op: Operator, _ b: JSONValue, _ pattern: Pattern?) -> Bool {
        switch op {
        case .equal: return a == b
        case .notEqual: return a != b
        case .contains:
            // Text contains text; a list (`ad.uuids`) contains an element.
            if case .array(let items) = a { return items.contains(b) }
            guard case .string(let s) = a, case .string(let t) = b else { return false }
            return s.contains(t)
        case .matches:
            guard case .string(let s) = a, let pattern else { return false }
            return (try? pattern.regex.firstMatch(in: s)) != nil
        default:
            let order: Bool?
            if let x = a.numberValue, let y = b.numberValue {
                order = x < y ? true : (x == y ? nil : false)
            } else if case .string(let x) = a, case .string(let y) = b {
                order = x < y ? true : (x == y ? nil : false)
            } else {
                return false
            }
            switch op {
            case .less: return order == true
            case .lessOrEqual: return order != false
            case .greater: return order == false
            default: return order != true
            }
        }
    }
}
