import NearbyJSON

/// The vectors the reference decoder is known to fail, each with the reason, in
/// `Vectors/known-failures.json` (`{"knownFailures": 1, "description": …, "vectors": {ID:
/// WHY, …}}`): a vector that holds the specification against the reference until the reference
/// is fixed. `check` reports such a vector as skipped ("known failure"), so the run stays
/// green, and reports it as failed once it passes, so that the list stays true. `validate`
/// does not use the list: other implementations are held to every vector.
public struct KnownFailures: Sendable {
    /// Vector id → why the reference fails it.
    public var reasons: [String: String]

    public init(reasons: [String: String] = [:]) { self.reasons = reasons }

    /// The file's name in a vectors folder; `VectorSet` does not read it as vectors.
    public static let fileName = "known-failures.json"

    public static func load(_ path: String) throws(JSONInputError) -> KnownFailures {
        let root = try JSONFile.load(path)
        do throws(JSONInputError) {
            let o = try root.object(allowed: ["knownFailures", "description", "vectors"])
            _ = try o.required("knownFailures").integer(in: 1...1)
            let v = try o.required("vectors")
            guard case .object(let fields) = v.value else { throw v.fail("expected an object of id: reason") }
            var reasons: [String: String] = [:]
            for (id, why) in fields {
                guard case .string(let text) = why, !text.isEmpty else {
                    throw JSONInputError(
                        path: v.member(id), code: .invalidValue, reason: "say why the reference fails it")
                }
                reasons[id] = text
            }
            return KnownFailures(reasons: reasons)
        } catch {
            throw error.in(file: path)
        }
    }

    /// The result of a listed vector as `check` reports it: a failure or error, skipped as a
    /// known failure; a pass, failed (the list is out of date). Others are unchanged.
    public func apply(_ r: VectorResult) -> VectorResult {
        guard let why = reasons[r.id] else { return r }
        var out = r
        switch r.status {
        case .fail, .error:
            out.status = .skipped
            out.message = "known failure: \(why)"
            out.details = ["\(r.status.rawValue): \(r.message)"] + r.details
        case .pass:
            out.status = .fail
            out.message = "passes, but \(Self.fileName) lists it as a known failure: take it off the list"
        case .skipped:
            break
        }
        return out
    }
}
