import NearbyBytes

/// What kind of JSON input fault, an open code space: the one code space of the JSON layer's
/// error (`JSONInputError`).
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
    /// Text that is not JSON (RFC 8259), or JSON nested deeper than the parser reads.
    public static var syntax: Self { Self(rawValue: "syntax") }
    /// An object member whose key an earlier member of the same object has.
    public static var duplicateKey: Self { Self(rawValue: "duplicate-key") }
    /// A file that cannot be opened or read.
    public static var unreadable: Self { Self(rawValue: "unreadable") }
    /// A file larger than the readers take (`JSONFile.maximumBytes`).
    public static var tooLarge: Self { Self(rawValue: "too-large") }
}
