/// A file that could not be written: its path and the system's reason.
public struct OutputFileError: Error, Sendable, CustomStringConvertible {
    /// The file, as the caller named it.
    public var path: String
    /// The `errno` of the failing call.
    public var errno: Int32

    /// The failure of writing `path`, with the failing call's `errno`.
    public init(path: String, errno: Int32) {
        self.path = path
        self.errno = errno
    }

    /// "cannot write: " and the system's message for `errno`.
    public var reason: String { "cannot write: " + Errno(rawValue: errno).description }
    /// `path: reason`, as the commands print it.
    public var description: String { "\(path): \(reason)" }
}
