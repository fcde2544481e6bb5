import NearbyJSON

/// A field's value as `nearby-conformance decode` and `replay` print it: a JSON value.
///
/// Beacons, advertisements and engine events are given as fields named as the command
/// prints them (the vectors and the interop protocol use the same names), so an assertion
/// reads as a vector does: `beacon["major"] == 100`. Write one with a literal:
/// `["type": "ibeacon", "major": 100]`.
///
/// Two values are equal when they are the same JSON: numbers compare by value, whichever
/// case holds them (`.integer(3) == .number("3.0")`).
public enum FieldValue: Sendable, Hashable {
    /// JSON `null`: a field that is present but has no value (a hex-text record's time).
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number written without a fraction or exponent.
    case integer(Int64)
    /// Any other number (times in seconds, temperatures), as its JSON text, kept exactly:
    /// `"0.041878"`, `"30.000000"`. A floating-point literal gives its shortest form.
    case number(String)
    /// A string: hex bytes, UUIDs, type names, addresses.
    case string(String)
    /// An array of values.
    case array([FieldValue])
    /// An object: field name → value.
    case object([String: FieldValue])

    /// Whether two values are the same JSON (numbers by value).
    public static func == (a: FieldValue, b: FieldValue) -> Bool { a.json == b.json }

    /// Hashes the value so that equal values (numbers by value) hash alike.
    public func hash(into hasher: inout Hasher) { hasher.combine(json) }

    /// The member named `key` of an object, or nil (for other values too).
    public subscript(key: String) -> FieldValue? {
        if case .object(let fields) = self { return fields[key] }
        return nil
    }

    /// The string, or nil for other values.
    public var string: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The number as an integer when it is one exactly, or nil.
    public var integer: Int64? {
        switch self {
        case .integer(let i): i
        case .number(let text): Int64(text) ?? Double(text).flatMap { Int64(exactly: $0) }
        default: nil
        }
    }

    /// The number as a `Double`, or nil for other values.
    public var number: Double? {
        switch self {
        case .integer(let i): Double(i)
        case .number(let text): Double(text)
        default: nil
        }
    }

    /// The value as one line of JSON, object keys sorted (as the commands print it).
    public var jsonText: String { json.serialized }

    /// Parses one JSON value (a line of `decode` or `replay` output, a scenario file's text).
    public init(jsonText: String) throws(ConformanceError) {
        do {
            self.init(try JSONParser.parse(jsonText))
        } catch {
            throw ConformanceError(.invalidJSON, file: nil, error.message)
        }
    }

    package init(_ value: JSONValue) {
        switch value {
        case .null: self = .null
        case .bool(let b): self = .bool(b)
        case .integer(let i): self = .integer(i)
        case .number(let text): self = Int64(text).map(FieldValue.integer) ?? .number(text)
        case .double(let d): self = .number(String(d))
        case .string(let s): self = .string(s)
        case .array(let items): self = .array(items.map(FieldValue.init))
        case .object(let fields): self = .object(fields.mapValues(FieldValue.init))
        }
    }

    package var json: JSONValue {
        switch self {
        case .null: .null
        case .bool(let b): .bool(b)
        case .integer(let i): .integer(i)
        case .number(let text): .number(text)
        case .string(let s): .string(s)
        case .array(let items): .array(items.map(\.json))
        case .object(let fields): .object(fields.mapValues(\.json))
        }
    }
}

extension FieldValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    /// `nil` is JSON `null`.
    public init(nilLiteral: ()) { self = .null }
    /// A Boolean literal.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An integer literal.
    public init(integerLiteral value: Int64) { self = .integer(value) }
    /// A floating-point literal.
    public init(floatLiteral value: Double) { self = .number(String(value)) }
    /// A string literal.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An array literal.
    public init(arrayLiteral elements: FieldValue...) { self = .array(elements) }
    /// A dictionary literal: an object. A repeated key keeps its last value.
    public init(dictionaryLiteral elements: (String, FieldValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { $1 }))
    }
}

extension FieldValue: CustomStringConvertible {
    /// The value as JSON text.
    public var description: String { jsonText }
}

extension [String: FieldValue] {
    /// The fields of `object`; empty unless it is an object.
    package init(_ object: JSONValue?) {
        if case .object(let fields)? = object { self = fields.mapValues(FieldValue.init) } else { self = [:] }
    }
}
