/// A fault that stops a whole file rather than one record in it: which (`path`, the file as
/// the user named it), what kind (`code`, from the layer's own code space) and why, in words
/// for people. Each layer names its instance: `CaptureFileError`, `AudioFileError`; damage
/// inside a file that reads is a `DecodeError` per record instead. (The JSON layer's one
/// error, `JSONInputError`, has a JSON path, a line and a column beside the file.)
public struct PathFault<Code: FaultCode>: Error, Hashable, Sendable, CustomStringConvertible {
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

/// An open code space of faults (`PathFault.code`): a string raw value, printed as itself.
public protocol FaultCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible where RawValue == String {
    init(rawValue: String)
}

extension FaultCode {
    public var description: String { rawValue }
}
