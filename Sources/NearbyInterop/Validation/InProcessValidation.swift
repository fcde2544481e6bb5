import NearbyJSON
import NearbyRunner

/// `validate` without a process (INTEROP-51): the vectors are put to an implementation that
/// lives in the caller's process, as requests and replies of the interop protocol (the JSON
/// objects of INTEROP-18 to INTEROP-24, without their transport), and judged exactly as
/// `ValidateSession` judges a reply (INTEROP-25 to INTEROP-29).
///
/// What the transport does has no counterpart here: there is no handshake (the caller gives
/// the `Implementation`), no time-out, restart or fault budget (a reply is a return value), and
/// no blind copies (the implementation shares the caller's process; the generated vectors of
/// INTEROP-48 are the check an implementation cannot look up).
public struct InProcessValidation: Sendable {
    /// What the implementation says about itself, as its handshake would (INTEROP-8,
    /// INTEROP-9, INTEROP-12 to INTEROP-17).
    public var implementation: ValidateSession.Implementation
    /// Levels to run (nil: all the implementation supports).
    public var levels: Set<InteropLevel>?
    /// Leaves out the vectors that are skipped when their files are absent (the field
    /// captures outside the repository), so that a run gives the same verdicts everywhere.
    public var excludingOptionalVectors: Bool

    public init(
        implementation: ValidateSession.Implementation, levels: Set<InteropLevel>? = nil,
        excludingOptionalVectors: Bool = true
    ) {
        self.implementation = implementation
        self.levels = levels
        self.excludingOptionalVectors = excludingOptionalVectors
    }

    /// Runs `set`'s vectors in id order: each of a selected level the implementation supports
    /// is made into a request (without its `id`) and given to `answer`, whose reply (without
    /// its `id`) is judged. A vector of another level is skipped as over the protocol; one
    /// whose files are missing errs. The set's load errors are results too.
    public func run(
        _ set: VectorSet, answer: ([String: JSONValue]) -> [String: JSONValue]
    ) -> [VectorResult] {
        let vectors = set.vectors.filter { !(excludingOptionalVectors && $0.skipWhenFilesAbsent) }
            .sorted { ($0.id, $0.file) < ($1.id, $1.file) }
        var results: [VectorResult] = []
        for v in vectors {
            if let r = result(for: v, answer: answer) { results.append(r) }
        }
        results += set.errors.map(\.result)
        results.sort { ($0.id, $0.file) < ($1.id, $1.file) }
        return results
    }

    /// The verdict on `v`, or nil when its level was not selected.
    func result(for v: Vector, answer: ([String: JSONValue]) -> [String: JSONValue]) -> VectorResult? {
        let level = InteropLevel(v.kind)
        if let levels, !levels.contains(level) { return nil }
        let r = VectorResult(id: v.id, kind: v.kind.rawValue, file: v.file, status: .pass)
        if let missing = VectorResult.missingFiles(of: v) { return missing }
        guard implementation.levels.contains(level) else {
            return ValidateRun.verdict(r, .levelUnsupported(level))
        }
        let request: JSONValue
        do {
            request = try InteropRequest.make(v, id: "")
        } catch {
            return ValidateRun.verdict(r, .requestUnbuildable(reason: error.reason))
        }
        guard case .object(var fields) = request else {
            return ValidateRun.verdict(r, .requestUnbuildable(reason: "internal: the request is not an object"))
        }
        fields["id"] = nil
        var judged = r
        InteropReply.judge(v, reply: answer(fields), coverage: implementation.coverage, &judged)
        return judged
    }
}
