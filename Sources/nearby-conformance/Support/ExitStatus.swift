import NearbyDecode
import NearbyDecodeSession

/// The exit statuses the commands share (argument-parser's own: 0 success, 64 usage error).
enum ExitStatus {
    /// A file could not be used, a vector failed or erred, bad input.
    static let failure: Int32 = 1
    /// Every file was read, but some records (or samples) could not be decoded.
    static let partiallyDecoded: Int32 = 2
    /// No vector ran (pytest's "no tests collected").
    static let nothingRan: Int32 = 5
    /// `validate`'s deadline passed before every vector ran (pytest's "interrupted"), whatever
    /// the verdicts of those that ran.
    static let incomplete: Int32 = 2

    /// The status of a decode run: 0, `partiallyDecoded` or `failure`.
    static func of(_ outcome: DecodeSession.Outcome) -> Int32 {
        switch outcome {
        case .complete: 0
        case .partiallyDecoded: partiallyDecoded
        case .fileUnreadable: failure
        }
    }
}
