/// An input error at a JSON path (`$.events[3].subscribe.type`): what kind (`code`) and why,
/// in words for people. `JSONFileError` adds the file.
public struct JSONInputError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of error, an open code space.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// A value of another JSON type than the one expected.
        public static var wrongType: Code { Code(rawValue: "wrong-type") }
        /// A member the object does not allow.
        public static var unknownField: Code { Code(rawValue: "unknown-field") }
        /// A member the object requires is absent.
        public static var missingField: Code { Code(rawValue: "missing-field") }
        /// A number outside its range.
        public static var outOfRange: Code { Code(rawValue: "out-of-range") }
        /// A value of the right type that the field does not accept (not one of its choices,
        /// not a whole number of microseconds, inconsistent with another field, …).
        public static var invalidValue: Code { Code(rawValue: "invalid-value") }
    }

    public var path: String
    public var code: Code
    public var reason: String

    public init(path: String, code: Code, reason: String) {
        self.path = path
        self.code = code
        self.reason = reason
    }

    /// `path: reason`, as the commands print it.
    public var description: String { "\(path): \(reason)" }
}
