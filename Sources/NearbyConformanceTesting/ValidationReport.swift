import Testing

/// The verdicts of an in-process validation (``ConformanceVectors/validate(_:levels:filter:)``).
public struct ValidationReport: Sendable, Hashable, CustomStringConvertible {
    /// The implementation judged: its name and version.
    public var implementation: String
    /// One verdict per vector run, in id order.
    public var verdicts: [VectorVerdict]

    /// The verdicts that failed or erred: what a test should report.
    public var failures: [VectorVerdict] { verdicts.filter { $0.status == .failed || $0.status == .error } }

    /// How many vectors ended with `status`.
    public func count(_ status: VectorVerdict.Status) -> Int { verdicts.count { $0.status == status } }

    /// `NAME VERSION: P passed, F failed, E errors, S skipped`.
    public var description: String {
        "\(implementation): \(count(.passed)) passed, \(count(.failed)) failed, \(count(.error)) errors, "
            + "\(count(.skipped)) skipped"
    }

    /// Records one Swift Testing issue per failing or erring vector, with its first
    /// divergence, at `sourceLocation` (the caller's line by default). From XCTest, report
    /// them with `for f in report.failures { XCTFail(f.description) }`.
    public func recordIssues(sourceLocation: SourceLocation = #_sourceLocation) {
        for failure in failures {
            Issue.record(Comment(rawValue: failure.description), sourceLocation: sourceLocation)
        }
    }
}
