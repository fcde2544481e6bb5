import NearbyJSON

/// The JSON reports of several shards of one run (`check --shard K/N --json`, `validate
/// --shard K/N --json`) read back and merged into the results of one run: what
/// `merge-reports` writes its reports from. The merged results are sorted as a run sorts
/// them (by id, then file), so the merged JSON report of a complete set of shards is the
/// report of the run without shards, byte for byte.
public struct MergedReport: Sendable {
    public var results: [VectorResult] = []
    /// The implementation the reports are about (`validate`); nil for `check`.
    public var implementation: CheckReport.Subject?

    /// A set of shard reports that cannot be merged.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// A report cannot be read or is not a report (`CheckReport.json`'s form).
        case unusable(JSONInputError)
        /// The same vector (id and file) is in two reports: the shards overlap.
        case overlap(id: String, file: String, first: String, second: String)
        /// Two reports are about different implementations, or one is and the other not.
        case differentImplementations(first: String, second: String)

        /// A short code naming the case, for scripts: `unusable`, `overlap`, `implementations`.
        public var code: String {
            switch self {
            case .unusable: "unusable"
            case .overlap: "overlap"
            case .differentImplementations: "implementations"
            }
        }

        public var description: String {
            switch self {
            case .unusable(let error): "\(error)"
            case .overlap(let id, let file, let first, let second):
                "vector \(id) (\(file)) is in both \(first) and \(second): the shards overlap"
            case .differentImplementations(let first, let second):
                "\(first) and \(second) report on different implementations"
            }
        }
    }

    public init() {}

    /// Merges the reports at `paths` (each as `check --json` or `validate --json` writes it).
    public init(paths: [String]) throws(Failure) {
        var seen: [String: String] = [:]
        var subjectFile: String?
        for path in paths {
            let report: (results: [VectorResult], implementation: CheckReport.Subject?)
            do {
                report = try Self.read(JSONFile.load(path).value, file: path)
            } catch {
                throw .unusable(error)
            }
            if let first = subjectFile {
                if report.implementation != implementation {
                    throw .differentImplementations(first: first, second: path)
                }
            } else {
                subjectFile = path
                implementation = report.implementation
            }
            for r in report.results {
                let key = r.id + "\u{0}" + r.file
                if let first = seen[key] { throw .overlap(id: r.id, file: r.file, first: first, second: path) }
                seen[key] = path
            }
            results += report.results
        }
        results.sort { ($0.id, $0.file) < ($1.id, $1.file) }
    }

    /// One report's results and subject; `file` names it in errors.
    static func read(
        _ document: JSONValue, file: String
    ) throws(JSONInputError) -> (
        results: [VectorResult], implementation: CheckReport.Subject?
    ) {
        do throws(JSONInputError) {
            let top = try JSONNode(document).object(allowed: ["summary", "vectors", "implementation"])
            var results: [VectorResult] = []
            for node in try top.required("vectors").array() {
                let v = try node.object(allowed: ["id", "kind", "file", "status", "message", "details"])
                let status = try v.required("status").choice(["pass", "fail", "error", "skipped"])
                var details: [String] = []
                for line in try v.required("details").array() { details.append(try line.string()) }
                results.append(
                    VectorResult(
                        id: try v.required("id").string(), kind: try v.required("kind").string(),
                        file: try v.required("file").string(), status: VectorResult.Status(rawValue: status)!,
                        message: try v.required("message").string(), details: details))
            }
            let summary = try top.required("summary").object(allowed: [
                "total", "passed", "failed", "errors", "skipped",
            ])
            let total = try summary.required("total").integer(in: 0...Int64(Int32.max))
            if total != results.count {
                throw summary.node.fail("total is \(total) but the report lists \(results.count) vectors")
            }
            var implementation: CheckReport.Subject?
            if let node = top.optional("implementation") {
                let i = try node.object(allowed: ["command", "name", "version"])
                func text(_ key: String) throws(JSONInputError) -> String? {
                    guard let n = i.optional(key), n.value != .null else { return nil }
                    return try n.string()
                }
                implementation = CheckReport.Subject(
                    name: try text("name"), version: try text("version"), command: try i.required("command").string())
            }
            return (results, implementation)
        } catch {
            throw error.in(file: file)
        }
    }
}
