/// A replay that could not run: an input file that cannot be read, a spill file that cannot
/// be written, or scenario inputs the engine refuses.
///
/// `code` says which (an open code space, as `DecodeError.Code` is); `reason` is the sentence
/// for people, the underlying error's own message.
public struct ReplayError: Error, Sendable, CustomStringConvertible {
    public var code: Code
    /// What went wrong, for people: the failing layer's message.
    public var reason: String

    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    public var description: String { reason }

    /// Why a replay stopped. Open: new codes can be added without breaking callers.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// A capture file could not be opened or read (`CaptureFileError`).
        public static let captureUnreadable = Code(rawValue: "capture-unreadable")
        /// A sound file could not be opened or read (`AudioFileError`).
        public static let soundFileUnreadable = Code(rawValue: "sound-file-unreadable")
        /// The temporary file for sightings that do not fit in memory failed.
        public static let spillFailed = Code(rawValue: "spill-failed")
        /// The engine refused a scenario input (`EngineInputError`).
        public static let inputRefused = Code(rawValue: "input-refused")
    }
}
