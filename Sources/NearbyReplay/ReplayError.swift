/// A replay that could not run: an input file that cannot be read, a spill file that cannot
/// be written, or scenario inputs the engine refuses.
///
/// `code` says which; `reason` is the sentence for people, the underlying error's own message.
public struct ReplayError: Error, Sendable, CustomStringConvertible {
    public var code: Code
    /// What went wrong, for people: the failing layer's message.
    public var reason: String

    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    public var description: String { reason }

    /// Why a replay stopped.
    public enum Code: String, Sendable, CustomStringConvertible {
        /// A capture file could not be opened or read (`CaptureFileError`).
        case captureUnreadable = "capture-unreadable"
        /// A sound file could not be opened or read (`AudioFileError`).
        case soundFileUnreadable = "sound-file-unreadable"
        /// The temporary file for sightings that do not fit in memory failed.
        case spillFailed = "spill-failed"
        /// The engine refused a scenario input (`EngineInputError`).
        case inputRefused = "input-refused"
        /// More than 65,536 captures, or sound files, were named.
        case tooManyFiles = "too-many-files"

        public var description: String { rawValue }
    }
}
