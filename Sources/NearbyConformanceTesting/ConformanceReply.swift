import NearbyConformance

/// An implementation's answer to a ``ConformanceRequest`` (docs/spec/interop.md, INTEROP-19
/// to INTEROP-24), judged as `check` judges the reference.
public enum ConformanceReply: Sendable, Hashable {
    /// To a frame: its beacons, and optionally the advertisement's fields; or, when
    /// `DecodedFrame.fault` is set, that fault (its code and offset must be the vector's).
    case frame(DecodedFrame)
    /// To a capture: every beacon in record order, each with its `record` field, and
    /// optionally the record counts.
    case capture(beacons: [Beacon], records: RecordCounts?)
    /// To a sound file: its token frames in start order, each an object with `token` (hex),
    /// `mode` (`inaudible` or `audible`), `start` (seconds) and optionally `channel`.
    case audio(frames: [FieldValue])
    /// To a scenario: its callbacks in order, each an object as `replay` prints it.
    case events([FieldValue])
    /// To a scenario that breaks the format's rules: the JSON path of the first, and why.
    case refused(path: String, reason: String)
    /// The implementation does not handle this request: the vector is skipped, neither
    /// passed nor failed.
    case unsupported(String)
}
