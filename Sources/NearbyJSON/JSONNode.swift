/// A value inside a parsed input file together with its JSON path, so every check can say
/// exactly where the input is wrong. Readers never default silently: a wrong type, an unknown
/// field or an out-of-range value is a `JSONInputError` naming the path.
public struct JSONNode: Sendable {
    public let value: JSONValue
    public let path: String

    public init(_ value: JSONValue, path: String = "$") {
        self.value = value
        self.path = path
    }

    /// An error at this value: `code` what kind (a value out of its domain, unless said), and
    /// `reason` in words.
    public func fail(_ reason: String, code: JSONInputFault = .invalidValue) -> JSONInputError {
        JSONInputError(path: path, code: code, reason: reason)
    }

    private var typeName: String {
        switch value {
        case .null: "null"
        case .bool: "a boolean"
        case .integer, .number, .double: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    private func wrongType(_ expected: String) -> JSONInputError {
        fail("expected \(expected), found \(typeName)", code: .wrongType)
    }

    /// The object, after checking that it has no field outside `allowed`.
    public func object(allowed: [String]) throws(JSONInputError) -> JSONObject {
        guard case .object(let fields) = value else { throw wrongType("an object") }
        for key in fields.keys.sorted() where !allowed.contains(key) {
            throw JSONInputError(
                path: member(key), code: .unknownField,
                reason: "unknown field \"\(key)\" (allowed: \(allowed.joined(separator: ", ")))")
        }
        return JSONObject(node: self, fields: fields)
    }

    /// The path of this object's member `key`: `$.a.b` for a key of letters, digits and `_`
    /// that does not start with a digit, else `$.a["key with \"quotes\""]` (the key as a JSON
    /// string), so that any key read from a file is named unambiguously.
    public func member(_ key: String) -> String { path + Self.step(key) }

    /// The step from an object's path to its member `key`: `.key`, or `["key"]` for a key
    /// `member` does not write plain.
    public static func step(_ key: String) -> String {
        let plain =
            key.utf8.first.map { !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } ?? false
            && key.utf8.allSatisfy {
                $0 == UInt8(ascii: "_") || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0 | 0x20)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
            }
        return plain ? "." + key : "[" + JSONValue.string(key).serialized + "]"
    }

    public func array() throws(JSONInputError) -> [JSONNode] {
        guard case .array(let items) = value else { throw wrongType("an array") }
        return items.enumerated().map { JSONNode($0.element, path: "\(path)[\($0.offset)]") }
    }

    public func string() throws(JSONInputError) -> String {
        guard case .string(let s) = value else { throw wrongType("a string") }
        return s
    }

    public func bool() throws(JSONInputError) -> Bool {
        guard case .bool(let b) = value else { throw wrongType("true or false") }
        return b
    }

    /// One of the given strings.
    public func choice(_ options: [String]) throws(JSONInputError) -> String {
        let s = try string()
        guard options.contains(s) else {
            throw fail("\"\(s)\" is not one of \(options.map { "\"\($0)\"" }.joined(separator: ", "))")
        }
        return s
    }

    /// An integer within `range` (written without fraction or exponent).
    public func integer(in range: ClosedRange<Int64>) throws(JSONInputError) -> Int64 {
        let text: String
        switch value {
        case .number(let t): text = t
        case .integer(let i): text = String(i)
        default: throw wrongType("an integer")
        }
        guard let v = Int64(text) else {
            throw fail("\(text) is not an integer in \(range.lowerBound)…\(range.upperBound)")
        }
        guard range.contains(v) else {
            throw fail("\(v) is out of range \(range.lowerBound)…\(range.upperBound)", code: .outOfRange)
        }
        return v
    }

    /// A number within `range`, as a Double (for measured quantities such as dBm and rates,
    /// where binary rounding is harmless).
    public func number(in range: ClosedRange<Double>) throws(JSONInputError) -> Double {
        let text: String
        switch value {
        case .number(let t): text = t
        case .integer(let i): text = String(i)
        case .double(let d): text = String(d)
        default: throw wrongType("a number")
        }
        guard let v = Double(text), v.isFinite else { throw fail("\(text) is not a finite number") }
        guard range.contains(v) else {
            throw fail("\(text) is out of range \(range.lowerBound)…\(range.upperBound)", code: .outOfRange)
        }
        return v
    }

    /// A time or duration given in seconds, converted exactly to microseconds. At most six
    /// decimals are meaningful; a value that is not a whole number of microseconds, or does
    /// not fit, is an error rather than a rounded number.
    public func microseconds(in range: ClosedRange<Int64>, unit: String = "seconds") throws(JSONInputError) -> Int64 {
        let text: String
        switch value {
        case .number(let t): text = t
        case .integer(let i): text = String(i)
        default: throw wrongType("a number of \(unit)")
        }
        guard let micros = Self.exactMicros(text) else {
            throw fail("\(text) \(unit) is not a whole number of microseconds within ±9.2e12 s")
        }
        guard range.contains(micros) else {
            let lower = JSONValue.seconds(micros: range.lowerBound).serialized
            let upper = JSONValue.seconds(micros: range.upperBound).serialized
            throw fail("\(text) \(unit) is out of range \(lower)…\(upper)", code: .outOfRange)
        }
        return micros
    }

    /// Exact conversion of JSON number text (seconds) to microseconds, or nil.
    public static func exactMicros(_ text: String) -> Int64? {
        var u = Substring(text)
        var negative = false
        if u.first == "-" {
            negative = true
            u = u.dropFirst()
        }
        var exponent = 0
        if let e = u.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            guard let x = Int(u[u.index(after: e)...]), abs(x) < 64 else { return nil }
            exponent = x
            u = u[..<e]
        }
        var digits = u
        var fraction = 0
        if let dot = u.firstIndex(of: ".") {
            fraction = u.distance(from: dot, to: u.endIndex) - 1
            digits = u[..<dot] + u[u.index(after: dot)...]
        }
        var scale = 6 + exponent - fraction  // micros = digits × 10^scale
        var trimmed = digits.drop(while: { $0 == "0" })
        while scale < 0, trimmed.last == "0" {
            trimmed = trimmed.dropLast()
            scale += 1
        }
        if trimmed.isEmpty { return 0 }
        if scale < 0 { return nil }
        guard var v = Int64(trimmed) else { return nil }
        for _ in 0..<scale {
            let (m, o) = v.multipliedReportingOverflow(by: 10)
            if o { return nil }
            v = m
        }
        return negative ? -v : v
    }
}

/// An object whose keys were checked against an allowed list.
public struct JSONObject: Sendable {
    public let node: JSONNode
    public let fields: [String: JSONValue]

    public func has(_ key: String) -> Bool { fields[key] != nil }

    public func optional(_ key: String) -> JSONNode? {
        fields[key].map { JSONNode($0, path: node.member(key)) }
    }

    public func required(_ key: String) throws(JSONInputError) -> JSONNode {
        guard let n = optional(key) else { throw node.fail("missing required field \"\(key)\"", code: .missingField) }
        return n
    }
}
