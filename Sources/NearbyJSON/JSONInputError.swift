import NearbyBytes

/// An input error at a JSON path (`$.events[3].subscribe.type`) of a value read from a file;
/// `JSONFileError` adds the file.
public typealias JSONInputError = PathFault<JSONInputFault>

/// What kind of `JSONInputError`, an open code space.
public struct JSONInputFault: FaultCode {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A value of another JSON type than the one expected.
    public static var wrongType: Self { Self(rawValue: "wrong-type") }
    /// A member the object does not allow.
    public static var unknownField: Self { Self(rawValue: "unknown-field") }
    /// A member the object requires is absent.
    public static var missingField: Self { Self(rawValue: "missing-field") }
    /// A number outside its range.
    public static var outOfRange: Self { Self(rawValue: "out-of-range") }
    /// A value of the right type that the field does not accept (not one of its choices,
    /// not a whole number of microseconds, inconsistent with another field, …).
    public static var invalidValue: Self { Self(rawValue: "invalid-value") }
}
