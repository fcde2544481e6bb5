import NearbyRunner

/// Why a vector sent to another implementation got no judged reply (INTEROP-33 to INTEROP-42): each
/// fault has a code, the status it gives the vector and the sentence its report shows.
public enum InteropFault: Error, Sendable, Equatable {
    /// The implementation could not be started or did not shake hands.
    case startFailed(HandshakeFault)
    /// The implementation is given up on (failed starts or time-outs in a row): the rest of
    /// the vectors are not sent.
    case notRun(why: String)
    /// The run's deadline passed before the vector's reply (or before it was sent): not run,
    /// and the run is incomplete.
    case deadlinePassed
    /// The implementation's handshake did not list the vector's level.
    case levelUnsupported(InteropLevel)
    /// The vector cannot be put into a request (a file it names cannot be read).
    case requestUnbuildable(reason: String)
    /// The request was not read within the time-out (the implementation still runs).
    case requestNotRead(seconds: Double, lastErrorLine: String?)
    /// The implementation exited before it read the request; `status` as `wait` describes it.
    case exitedBeforeRequest(status: String, lastErrorLine: String?)
    /// Its standard output closed while the shell that started it still runs.
    case outputClosed(lastErrorLine: String?)
    /// No reply within the time-out.
    case replyTimeout(seconds: Double, lastErrorLine: String?)
    /// The implementation ended (`how`) before it replied.
    case endedBeforeReply(how: String, lastErrorLine: String?)
    /// A reply line longer than `limit` bytes.
    case replyTooLong(limit: Int)
    /// A reply that is not JSON, or not a JSON object (`detail` says which, with an excerpt).
    case malformedReply(detail: String)
    /// A reply whose `id` is another vector's (`said`: the id as it was sent, JSON).
    case wrongVectorID(said: String, expected: String)

    /// A short stable name for the fault, for tools that sort verdicts.
    public var code: String {
        switch self {
        case .startFailed: "start-failed"
        case .notRun: "not-run"
        case .deadlinePassed: "deadline"
        case .levelUnsupported: "level-unsupported"
        case .requestUnbuildable: "request-unbuildable"
        case .requestNotRead, .replyTimeout: "timeout"
        case .exitedBeforeRequest, .outputClosed, .endedBeforeReply: "crashed"
        case .replyTooLong, .malformedReply: "malformed-reply"
        case .wrongVectorID: "wrong-vector-id"
        }
    }

    /// What the vector's result becomes: skipped for a level the implementation does not
    /// support and for a vector the deadline left out, an error for every other fault.
    public var status: VectorResult.Status {
        switch self {
        case .levelUnsupported, .deadlinePassed: .skipped
        default: .error
        }
    }

    /// The one-line message of the vector's result.
    public var reason: String {
        switch self {
        case .startFailed(let f): "could not start the implementation: \(f.reason)"
        case .notRun(let why): "not run: \(why)"
        case .deadlinePassed: "not run: deadline"
        case .levelUnsupported(let level): "level \(level) not supported by the implementation"
        case .requestUnbuildable(let reason): "the request cannot be built: \(reason)"
        case .requestNotRead(let seconds, let line):
            "timeout: the request was not read within \(seconds) s" + Self.suffix(line)
        case .exitedBeforeRequest(let status, let line): "crashed (\(status))" + Self.suffix(line)
        case .outputClosed(let line):
            "crashed: the implementation closed its standard output before replying (its shell still runs)"
                + Self.suffix(line)
        case .replyTimeout(let seconds, let line): "timeout: no reply within \(seconds) s" + Self.suffix(line)
        case .endedBeforeReply(let how, let line):
            "crashed: the implementation ended (\(how)) before replying" + Self.suffix(line)
        case .replyTooLong(let limit): "malformed reply: a line longer than \(limit) bytes"
        case .malformedReply(let detail): "malformed reply: \(detail)"
        case .wrongVectorID(let said, let expected):
            "wrong vector id: the reply is for \(said), not this request's id \"\(expected)\""
        }
    }

    /// "; its last error line: …", or nothing when it wrote none.
    static func suffix(_ lastErrorLine: String?) -> String {
        lastErrorLine.map { "; its last error line: \(excerpt($0))" } ?? ""
    }

    /// `s` quoted, cut to 120 characters.
    static func excerpt(_ s: String) -> String {
        s.count > 120 ? "\"" + s.prefix(120) + "…\"" : "\"" + s + "\""
    }
}
