import NearbyDecode
import NearbyJSON

/// Which vectors test each clause of the specification, and which tests hold the clauses no
/// vector can exercise: what `nearby-conformance coverage` prints and writes to
/// docs/coverage.md. A clause is held when a vector cites it, or, for a clause marked *(held
/// by tests)*, when a test file cites it.
public struct ClauseCoverage: Sendable {
    public struct Row: Sendable {
        public var clause: SpecificationClause
        /// Ids of the vectors that cite it, sorted.
        public var vectors: [String]
        /// Test files (relative to the tests folder) that cite it, sorted; looked for only
        /// for clauses held by tests.
        public var tests: [String]
        public var isHeld: Bool { !vectors.isEmpty || (clause.heldByTests && !tests.isEmpty) }
    }

    public private(set) var rows: [Row] = []
    public private(set) var vectorCount = 0
    /// Vectors per flag of the registry (zero for a flag no vector names).
    public private(set) var flagCounts: [String: Int] = [:]
    public private(set) var registry: FlagRegistry
    /// Everything that makes the coverage incomplete or the inputs wrong, one line each: the
    /// specification's problems, vectors that cannot be read, clauses and flags a vector names
    /// that do not exist, and clauses nothing holds. Empty when the suite covers the
    /// specification.
    public private(set) var problems: [String] = []

    /// `tests` is every test file as (path relative to the tests folder, text).
    public init(
        specification spec: Specification, vectors: VectorSet, registry: FlagRegistry, tests: [(String, String)]
    ) {
        self.registry = registry
        problems = spec.problems
        problems += vectors.errors.map { "vector \($0.description)" }
        vectorCount = vectors.vectors.count
        let known = Set(spec.clauses.map(\.id))
        var byClause: [String: [String]] = [:]
        for name in registry.flags.keys { flagCounts[name] = 0 }
        for v in vectors.vectors {
            for c in v.clauses {
                if known.contains(c) {
                    byClause[c, default: []].append(v.id)
                } else {
                    problems.append(
                        "vector \(v.id) (\(v.file)): cites \(c), which no page of the specification defines")
                }
            }
            for f in v.flags {
                if registry.flags[f] == nil {
                    problems.append("vector \(v.id) (\(v.file)): flag \(f) is not in the flag registry")
                } else {
                    flagCounts[f, default: 0] += 1
                }
            }
        }
        var citedBy: [String: [String]] = [:]
        let heldByTests = Set(spec.clauses.filter(\.heldByTests).map(\.id))
        for (file, text) in tests {
            for id in Self.clauseIds(in: text) where heldByTests.contains(id) { citedBy[id, default: []].append(file) }
        }
        for clause in spec.clauses {
            let row = Row(
                clause: clause, vectors: (byClause[clause.id] ?? []).sorted(),
                tests: Array(Set(citedBy[clause.id] ?? [])).sorted())
            if !row.isHeld {
                problems.append(
                    "\(clause.page):\(clause.line): \(clause.id) "
                        + (clause.heldByTests ? "is held by tests, but no test cites it" : "has no vector"))
            }
            rows.append(row)
        }
    }

    /// Loads the specification, the vectors, the flag registry and the test files, and
    /// computes the coverage.
    public static func load(
        specification: String, vectors: [String], flags: String, tests: String
    ) -> ClauseCoverage {
        let spec = Specification.load(specification)
        let set = VectorSet.load(vectors)
        var registry = FlagRegistry(flags: [:])
        var registryProblem: String?
        do {
            registry = try FlagRegistry.load(flags)
        } catch {
            registryProblem = "\(flags): \(error.description)"
        }
        var files: [(String, String)] = []
        for path in FileTree.files(below: tests) where path.hasSuffix(".swift") {
            guard let bytes = try? JSONFile.read(path) else { continue }
            files.append((String(path.dropFirst(tests.count + 1)), String(decoding: bytes, as: UTF8.self)))
        }
        var coverage = ClauseCoverage(specification: spec, vectors: set, registry: registry, tests: files)
        if let registryProblem { coverage.problems.insert(registryProblem, at: 0) }
        return coverage
    }

    /// The words of `text` that have the shape of a clause id.
    static func clauseIds(in text: String) -> Set<String> {
        var ids: Set<String> = []
        var word = ""
        for u in text.unicodeScalars {
            if ("A"..."Z").contains(u) || ("0"..."9").contains(u) || u == "-" {
                word.unicodeScalars.append(u)
            } else {
                if Vector.isClauseId(word) { ids.insert(word) }
                word = ""
            }
        }
        if Vector.isClauseId(word) { ids.insert(word) }
        return ids
    }
}
