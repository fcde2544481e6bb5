/// A capture file that cannot be read, or written, at all: missing, empty, not a capture, or
/// with a broken file header (RECORDS-2). Damage inside a file is reported per record
/// instead (`DecodeError`). `code` says which, `reason` says it for people.
public struct CaptureFileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of failure, an open code space.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The file cannot be opened, examined, read or copied (missing, a folder, no
        /// permission, a stream whose temporary copy failed).
        public static var unreadable: Code { Code(rawValue: "unreadable") }
        /// The file holds no byte.
        public static var empty: Code { Code(rawValue: "empty") }
        /// Neither pcap, pcapng, btsnoop nor hex text.
        public static var unknownFormat: Code { Code(rawValue: "unknown-format") }
        /// The file header is damaged or cut short.
        public static var badHeader: Code { Code(rawValue: "bad-header") }
        /// A well-formed header of a version or kind not read (btsnoop other than version 1).
        public static var unsupported: Code { Code(rawValue: "unsupported") }
        /// A capture being written cannot be created, written or closed.
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
