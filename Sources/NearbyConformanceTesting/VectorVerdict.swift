import NearbyRunner

/// The verdict on one vector, with its first divergence when it failed.
public struct VectorVerdict: Sendable, Hashable, CustomStringConvertible {
    /// How a vector ended.
    public enum Status: String, Sendable, Hashable {
        /// The reply matched the vector's expectation.
        case passed
        /// The reply differs: ``VectorVerdict/message`` and ``VectorVerdict/details`` say where first.
        case failed
        /// The vector could not be judged (a file it names is missing, the reply has the
        /// wrong shape).
        case error
        /// Not judged: a level or beacon type the implementation does not answer, an
        /// `unsupported` reply, a field capture absent from this machine.
        case skipped
    }

    /// The vector's id, e.g. `frames/ibeacon/basic`.
    public var id: String
    /// The vector's kind: `frame`, `capture`, `audio` or `scenario`.
    public var kind: String
    /// The vector file that holds it, relative to the vectors' folder.
    public var file: String
    /// How it ended.
    public var status: Status
    /// One line: why it failed, erred or was skipped (empty when it passed).
    public var message: String
    /// Further lines: the first divergence in context (expected and got).
    public var details: [String]

    init(_ r: VectorResult) {
        id = r.id
        kind = r.kind
        file = r.file
        status =
            switch r.status {
            case .pass: .passed
            case .fail: .failed
            case .error: .error
            case .skipped: .skipped
            }
        message = r.message
        details = r.details
    }

    /// `ID: STATUS: MESSAGE` and the detail lines, indented.
    public var description: String {
        ([id + ": " + status.rawValue + (message.isEmpty ? "" : ": " + message)] + details.map { "    " + $0 })
            .joined(separator: "\n")
    }
}
