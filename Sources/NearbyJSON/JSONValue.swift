/// A JSON value that serialises deterministically: object keys sorted by their UTF-8
/// bytes, no insignificant white space, numbers written exactly as given. Golden files
/// and line-by-line diffs of the output therefore compare byte for byte.
///
/// Two values are equal when they are the same JSON: numbers compare by value whichever
/// case holds them (`.integer(3)`, `.number("3.0")` and `.double(3)` are equal; integers
/// exactly, other numbers as Doubles), everything else case by case.
public enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case integer(Int64)
    /// A number already formatted (fixed decimals such as times), written verbatim.
    case number(String)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.string(let x), .string(let y)): return x == y
        case (.array(let x), .array(let y)): return x == y
        case (.object(let x), .object(let y)): return x == y
        default:
            if let x = a.exactInteger, let y = b.exactInteger { return x == y }
            if let x = a.numberValue, let y = b.numberValue { return x == y }
            return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let b): hasher.combine(b)
        case .string(let s): hasher.combine(s)
        case .array(let items): hasher.combine(items)
        case .object(let fields): hasher.combine(fields)
        case .integer, .number, .double: hasher.combine(numberValue ?? .nan)
        }
    }

    /// The number as a Double; nil for other values.
    public var numberValue: Double? {
        switch self {
        case .integer(let i): Double(i)
        case .number(let s): Double(s)
        case .double(let d): d
        default: nil
        }
    }

    /// The string; nil for other values.
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The number as an `Int` when it is an integer written without a fraction or exponent
    /// and fits; nil otherwise.
    public var intValue: Int? {
        switch self {
        case .integer(let n): Int(exactly: n)
        case .number(let t): Int(t)
        default: nil
        }
    }

    /// An integer written without a fraction or exponent, exactly; nil otherwise.
    private var exactInteger: Int64? {
        switch self {
        case .integer(let i): i
        case .number(let s): Int64(s)
        default: nil
        }
    }

    public static func int<T: BinaryInteger>(_ v: T) -> JSONValue { .integer(Int64(v)) }
    public static func optionalInt<T: BinaryInteger>(_ v: T?) -> JSONValue { v.map { .integer(Int64($0)) } ?? .null }

    /// The value as compact JSON text with sorted keys (`JSONWriter.value`).
    public var serialized: String {
        var w = JSONWriter(capacity: 64)
        w.value(self)
        return String(decoding: w.bytes, as: UTF8.self)
    }
}

extension JSONValue {
    /// Microseconds since the Unix epoch as seconds with exactly six decimals.
    public static func seconds(micros: Int64) -> JSONValue {
        var w = JSONWriter(capacity: 24)
        w.seconds(micros: micros)
        return .number(String(decoding: w.bytes, as: UTF8.self))
    }
}
