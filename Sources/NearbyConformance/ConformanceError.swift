/// Why a capture, a sound file, a scenario or a vector set could not be used at all (damage
/// *inside* a capture is not an error: it is a ``CaptureIssue`` and decoding goes on).
public struct ConformanceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, as a stable code a program can match.
    public var code: Code
    /// The file concerned, when there is one.
    public var file: String?
    /// One sentence for people: what is wrong, and where in the file when that is known.
    public var reason: String

    /// Makes an error.
    public init(_ code: Code, file: String?, _ reason: String) {
        self.code = code
        self.file = file
        self.reason = reason
    }

    /// `FILE: REASON [CODE]`, or `REASON [CODE]` without a file.
    public var description: String { (file.map { "\($0): " } ?? "") + "\(reason) [\(code.rawValue)]" }

    /// An open set of error codes (new ones may come; match the ones you handle).
    public struct Code: RawRepresentable, Sendable, Hashable {
        /// The code's text, e.g. `capture/unreadable`.
        public let rawValue: String
        /// Makes a code from its text.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The capture file is missing, empty, of no known container, or its header is broken.
        public static let captureUnreadable = Code(rawValue: "capture/unreadable")
        /// The scenario or its registry breaks the scenario format's rules; `reason` names
        /// the JSON path.
        public static let scenarioRefused = Code(rawValue: "scenario/refused")
        /// The replay could not be run: a capture or sound file it names cannot be read.
        public static let replayFailed = Code(rawValue: "replay/failed")
        /// The text is not JSON.
        public static let invalidJSON = Code(rawValue: "json/invalid")
        /// An identity key or rotation exponent outside its range.
        public static let invalidKey = Code(rawValue: "eid/invalid-key")
    }
}
