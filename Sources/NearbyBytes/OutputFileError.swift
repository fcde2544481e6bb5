import NearbySystem

/// A file that could not be written: its path and the system's reason.
public struct OutputFileError: Error, Sendable, CustomStringConvertible {
    public var path: String
    /// The `errno` of the failing call.
    public var errno: Int32

    public init(path: String, errno: Int32) {
        self.path = path
        self.errno = errno
    }

    /// "cannot write: " and the system's message for `errno`.
    public var reason: String { "cannot write: " + Errno(rawValue: errno).description }
    public var description: String { "\(path): \(reason)" }
}
