/// Why a live source could not be opened, driven or read on: the source as the user named
/// it, what went wrong (an open code) and a sentence that says what to do about it.
public struct LiveError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The source as named on the command line (`tcp-client:127.0.0.1:9101`, `hci-monitor`…).
    public var source: String
    public var code: Code
    /// A sentence for people: what happened and, where there is one, the way out.
    public var reason: String
    /// Where in the source's byte stream it went wrong (0-based), when that is known
    /// (`garbage`).
    public var streamOffset: Int64?

    public init(source: String, _ code: Code, _ reason: String, streamOffset: Int64? = nil) {
        self.source = source
        self.code = code
        self.reason = reason
        self.streamOffset = streamOffset
    }

    public var description: String { "\(source): \(reason)" }

    /// What went wrong. An open code space.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The source name is not one of the forms `LiveSourceName` reads.
        public static let badName = Code(rawValue: "bad-name")
        /// The connection or socket could not be opened.
        public static let cannotOpen = Code(rawValue: "cannot-open")
        /// The operating system refused for lack of privileges.
        public static let permission = Code(rawValue: "permission")
        /// This machine has no such source (no Bluetooth sockets, no such controller).
        public static let unavailable = Code(rawValue: "unavailable")
        /// The controller answered a command with an error status.
        public static let commandFailed = Code(rawValue: "command-failed")
        /// The controller did not answer a command in time.
        public static let commandTimeout = Code(rawValue: "command-timeout")
        /// The controller closed the connection.
        public static let disconnected = Code(rawValue: "disconnected")
        /// The controller sent bytes that are not HCI packets.
        public static let garbage = Code(rawValue: "garbage")
        /// Reading or writing the connection failed.
        public static let io = Code(rawValue: "io")
        /// The capture being written (`--write`) could not be written.
        public static let writeFailed = Code(rawValue: "write-failed")
    }
}
