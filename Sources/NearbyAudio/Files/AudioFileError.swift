/// A sound file that cannot be read or written at all: which file, what kind of failure
/// (`code`) and why, in words for people. Samples that cannot be decoded inside a file that
/// reads are reported per frame instead.
public struct AudioFileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What kind of failure, an open code space.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// libsndfile cannot open the file as sound (missing, not audio, a damaged header).
        public static var unreadable: Code { Code(rawValue: "unreadable") }
        /// A sound file of a shape not decoded: no channel, or a sample rate below 44.1 kHz.
        public static var unsupported: Code { Code(rawValue: "unsupported") }
        /// A sound file being written cannot be created, written or closed, or is asked for a
        /// format it cannot hold.
        public static var unwritable: Code { Code(rawValue: "unwritable") }
    }

    /// The file, as the user named it.
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
