import NearbyDecode
import NearbyJSON
import NearbyRunner

/// docs/conformance-matrix.md: every implementation of `Interop/implementations.json` run
/// through `validate` over the repository's vectors (the field captures, which live outside
/// it, are left out so the page is the same on every machine) and over vectors generated from
/// a fixed seed, with the pass/fail count per level, what each reports, its failures by class
/// (the vectors' flags) and by clause, with an example and its reason for each clause.
public struct ConformanceMatrix: Sendable {
    /// One implementation to run.
    public struct Entry: Sendable, Equatable {
        /// The shell command, as written in the list.
        public var command: String
        /// One sentence: what it is and how the adapter reaches it.
        public var about: String
        /// One sentence for its users: what the matrix found that they should know (written by
        /// hand from the failures below it; nil for none).
        public var summary: String? = nil
    }

    /// A library the list names but does not run, and why (`notHeld` in the list).
    public struct Unheld: Sendable, Equatable {
        public var name: String
        /// One sentence: what it is and why no vector can judge it.
        public var why: String
    }

    public struct Row: Sendable {
        public var entry: Entry
        public var outcome: ValidateSession.Outcome
        /// Its run over the generated vectors.
        public var generated: ValidateSession.Outcome
    }

    public var rows: [Row]
    /// The libraries named but not run, listed under the table.
    public var unheld: [Unheld]
    /// The vectors run (for the clauses behind the failures and the fields beacons have).
    public var vectors: [Vector]
    /// The generated vectors every implementation also meets, and how they were made.
    public var generatedVectors: [Vector]
    public var generation: (count: Int, seed: UInt64)
    /// The specification's clauses, by id: what the failures' clauses say.
    public var clauses: [String: SpecificationClause]

    /// The generated vectors of the page: enough for every class, made from a fixed seed so
    /// that the page is the same on every run.
    public static let generation = (count: 300, seed: UInt64(49))

    /// The list of `Interop/implementations.json`: what to run, and what is named but not run.
    public struct List: Sendable, Equatable {
        public var entries: [Entry]
        public var unheld: [Unheld]
    }

    /// Reads the list (`{"implementations": [{"command", "about", "summary"?}…], "notHeld"?:
    /// [{"name", "why"}…]}`).
    public static func list(file: String) throws(JSONInputError) -> List {
        let root = try JSONFile.load(file)
        do {
            let o = try root.object(allowed: ["description", "implementations", "notHeld"])
            var list = List(entries: [], unheld: [])
            for n in try o.required("implementations").array() {
                let e = try n.object(allowed: ["command", "about", "summary"])
                list.entries.append(
                    Entry(
                        command: try e.required("command").string(), about: try e.required("about").string(),
                        summary: try e.optional("summary")?.string()))
            }
            for n in try o.optional("notHeld")?.array() ?? [] {
                let e = try n.object(allowed: ["name", "why"])
                list.unheld.append(Unheld(name: try e.required("name").string(), why: try e.required("why").string()))
            }
            return list
        } catch {
            throw error.in(file: file)
        }
    }

    /// Runs every entry from `root` (the repository), a leading `nearby-conformance` in a
    /// command standing for `tool`.
    public static func run(
        _ list: List, root: String, tool: String, vectorPaths: [String], timeoutSeconds: Double = 30,
        progress: ((String, Int, Int) -> Void)? = nil
    ) -> ConformanceMatrix {
        let vectors = VectorSet.load(vectorPaths).vectors.filter { !$0.skipWhenFilesAbsent }
        // The generated vectors live in a scratch folder for the run; without one, none run.
        let scratch = try? ScratchFolder(purpose: "matrix")
        defer { scratch?.remove() }
        let generatedFile = scratch.flatMap {
            try? GeneratedVectors.write(count: generation.count, seed: generation.seed, to: $0.path)
        }
        let rows = list.entries.map { e in
            var command = e.command
            if command.hasPrefix("nearby-conformance ") {
                command = shellQuoted(tool) + command.dropFirst("nearby-conformance".count)
            }
            var session = ValidateSession(
                command: "cd \(shellQuoted(root)) && exec \(command)", timeoutSeconds: timeoutSeconds)
            session.excludingOptionalVectors = true
            let report = progress.map { p in { (done: Int, total: Int, _: String) in p(e.command, done, total) } }
            let outcome = session.run(paths: vectorPaths, progress: report)
            let generated = session.run(paths: generatedFile.map { [$0] } ?? [], progress: report)
            return Row(entry: e, outcome: outcome, generated: generated)
        }
        let spec = Specification.load(root + "/docs/spec")
        return ConformanceMatrix(
            rows: rows, unheld: list.unheld, vectors: vectors,
            generatedVectors: generatedFile.map { VectorSet.load([$0]).vectors } ?? [], generation: generation,
            clauses: Dictionary(spec.clauses.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a }))
    }

    static func shellQuoted(_ s: String) -> String {
        "'" + s.replacing("'", with: "'\\''") + "'"
    }

    /// The Markdown page.
    public func markdown() -> String {
        var out = """
            # Conformance matrix

            Generated by `nearby-conformance matrix` (do not edit): each implementation of
            [Interop/implementations.json](../Interop/implementations.json) run through `validate`
            ([spec/interop.md](spec/interop.md)) over the \(vectors.count) vectors in `Vectors/` that the
            repository holds (the field-capture vectors need files outside it and are left out), and over
            \(generation.count) vectors nobody has seen (`validate --generated \(generation.count) --seed \(generation.seed)`).
            A cell is *passed/run*; vectors an implementation cannot take (a level, a beacon type or a file
            format it does not handle) are skipped and counted apart. A FAIL is always a wrong value: fields
            an implementation does not report are not compared, and are listed under its name. Under each
            implementation its failures are counted by class (the vectors' flags, `Vectors/schema/flags.json`)
            and by clause of the specification, with one example each; `validate` lists every one.
            `ConformanceMatrixTests` fails when this page is out of date.

            \(summaries)| implementation | version | \(InteropLevel.all.map(\.rawValue).joined(separator: " | ")) | generated |
            |---|---|\(InteropLevel.all.map { _ in "---|" }.joined())---|

            """
        for row in rows {
            let name = row.outcome.implementation?.name ?? row.entry.command
            let cells =
                InteropLevel.all.map { cell(row.outcome.results, row, $0) } + [cell(row.generated.results, row, nil)]
            out +=
                "| [\(name)](#\(anchor(name))) | \(row.outcome.implementation?.version ?? "—") | "
                + "\(cells.joined(separator: " | ")) |\n"
        }
        if !unheld.isEmpty {
            out += "\nNot held to the vectors:\n\n"
            for u in unheld { out += "- **\(u.name)**: \(u.why)\n" }
        }
        var failedClauses: Set<String> = []
        for row in rows {
            out += "\n" + section(row, &failedClauses)
        }
        if !failedClauses.isEmpty {
            out += "\n## The clauses behind the failures\n\n| clause | what it says |\n|---|---|\n"
            for id in failedClauses.sorted() {
                let says = clauses[id].map { ClauseCoverage.summary($0.text) } ?? "(not a clause of docs/spec/)"
                let page = clauses[id].map { " ([\($0.page)](spec/\($0.page)))" } ?? ""
                out += "| `\(id)` | \(cellText(says))\(page) |\n"
            }
        }
        return out
    }

    /// What each implementation's users should know, a sentence each, before the table.
    var summaries: String {
        let lines = rows.compactMap { row in
            row.entry.summary.map { "- **\(row.outcome.implementation?.name ?? row.entry.command)**: \($0)\n" }
        }
        return lines.isEmpty ? "" : "In short:\n\n" + lines.joined() + "\n"
    }

    /// One cell: the results of `level` (nil: all of them, for the generated column).
    func cell(_ all: [VectorResult], _ row: Row, _ level: InteropLevel?) -> String {
        let results = all.filter { r in level.map { Vector.Kind(rawValue: r.kind).map(InteropLevel.init) == $0 } ?? true
        }
        guard !results.isEmpty else { return "—" }
        let skipped = results.filter { $0.status == .skipped }.count
        let run = results.count - skipped
        if run == 0 {
            return level.map { row.outcome.implementation?.levels.contains($0) == false } == true
                ? "—" : "\(skipped) skipped"
        }
        let passed = results.filter { $0.status == .pass }.count
        return "\(passed)/\(run)" + (skipped > 0 ? " (\(skipped) skipped)" : "")
    }

    /// How many reasons of a failure a clause row shows before cutting it.
    static let reasonLength = 160

    func section(_ row: Row, _ failedClauses: inout Set<String>) -> String {
        let info = row.outcome.implementation
        let name = info?.name ?? row.entry.command
        var s = "## \(name)\n\n\(row.entry.about)\n\n- Command: `\(row.entry.command)`\n"
        if let info {
            s += "- Version \(info.version); levels: \(info.levels.map(\.rawValue).joined(separator: ", "))\n"
            s += coverageLines(info.coverage)
        } else {
            s += "- It never completed a handshake.\n"
        }
        let byID = Dictionary((vectors + generatedVectors).map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let results = row.outcome.results + row.generated.results
        let bad = results.filter { $0.status == .fail || $0.status == .error }
        if bad.isEmpty {
            s += "\nEvery vector it took passes.\n"
        } else {
            // By class: each flag of the vectors it failed, against the vectors of that flag it ran.
            var failed: [String: Int] = [:], ran: [String: Int] = [:]
            for r in results where r.status != .skipped {
                let flags = byID[r.id]?.flags ?? []
                for f in flags.isEmpty ? ["(none)"] : flags {
                    ran[f, default: 0] += 1
                    if r.status != .pass { failed[f, default: 0] += 1 }
                }
            }
            s += "\nFailures by class:\n\n| flag | failed | of |\n|---|---:|---:|\n"
            for (flag, n) in failed.sorted(by: { ($0.value, $1.key) > ($1.value, $0.key) }) {
                s += "| `\(flag)` | \(n) | \(ran[flag] ?? 0) |\n"
            }
            // By clause: the first clause of each failed vector, with its first example.
            var examples: [String: (count: Int, first: VectorResult)] = [:]
            for r in bad {
                let clause = byID[r.id]?.clauses.first ?? "(none)"
                if let e = examples[clause] {
                    examples[clause] = (e.count + 1, e.first)
                } else {
                    examples[clause] = (1, r)
                }
            }
            s += "\nFailures by clause:\n\n| clause | failed | example | verdict | reason |\n|---|---:|---|---|---|\n"
            for (clause, e) in examples.sorted(by: { $0.key < $1.key }) {
                failedClauses.insert(clause)
                var reason = cellText(e.first.message)
                if reason.count > Self.reasonLength { reason = String(reason.prefix(Self.reasonLength)) + " …" }
                s +=
                    "| `\(clause)` | \(e.count) | `\(e.first.id)` | \(e.first.status.rawValue.uppercased()) | \(reason) |\n"
            }
        }
        let skips = Dictionary(grouping: results.filter { $0.status == .skipped }, by: \.message)
        if !skips.isEmpty {
            s += "\nSkipped:\n\n"
            for (why, rs) in skips.sorted(by: { ($0.value.count, $1.key) > ($1.value.count, $0.key) }) {
                let ids = rs.map(\.id)
                let list =
                    ids.count <= 3
                    ? ids.map { "`\($0)`" }.joined(separator: ", ") : "`\(ids[0])` … `\(ids[ids.count - 1])`"
                s += "- \(rs.count) × \(cellText(why)): \(list)\n"
            }
        }
        return s
    }

    /// What the implementation reports against the beacon fields the vectors expect.
    func coverageLines(_ c: InteropCoverage) -> String {
        var s = ""
        if let declared = c.beaconFields {
            var known: [String: Set<String>] = [:]
            for v in vectors {
                for case .object(let o) in Self.expectedBeacons(v) {
                    guard case .string(let type)? = o["type"] else { continue }
                    known[type, default: []].formUnion(o.keys.filter { $0 != "type" && $0 != "record" })
                }
            }
            let types = declared.keys.sorted()
            s +=
                "- Beacon types decoded: "
                + (types.isEmpty ? "none" : types.map { "`\($0)`" }.joined(separator: ", ")) + "\n"
            let notDecoded = known.keys.filter { declared[$0] == nil }.sorted()
            if !notDecoded.isEmpty {
                let judged =
                    c.recordCounts == nil
                    ? "their vectors are skipped" : "captures holding only these are judged on the record counts"
                s += "- Not decoded (\(judged)): \(notDecoded.map { "`\($0)`" }.joined(separator: ", "))\n"
            }
            let unreported = types.flatMap { t in
                (known[t] ?? []).subtracting(declared[t] ?? []).sorted().map { "`\(t).\($0)`" }
            }
            if !unreported.isEmpty {
                s += "- Fields not reported (not compared): \(unreported.joined(separator: ", "))\n"
            }
        }
        if let a = c.advertisementFields {
            s +=
                "- Advertisement fields reported: "
                + (a.isEmpty ? "none" : a.sorted().map { "`\($0)`" }.joined(separator: ", ")) + "\n"
        }
        if let counts = c.recordCounts {
            s +=
                "- Record counts reported (captures): "
                + counts.sorted().map { "`\($0)`" }.joined(separator: ", ") + "\n"
        }
        if !c.locatesFaults {
            s +=
                "- Faults are not located: malformed input is dropped without saying where, so a vector expecting a "
                + "fault passes when nothing is decoded from it.\n"
        }
        return s
    }

    static func expectedBeacons(_ v: Vector) -> [JSONValue] {
        switch v.expectation {
        case .beacons(let b, _): b
        case .capture(let b, _): b
        default: []
        }
    }

    /// One table cell: no line breaks, `|` escaped.
    func cellText(_ s: String) -> String {
        s.replacing("\n", with: " ").replacing("|", with: "\\|")
    }

    func anchor(_ name: String) -> String {
        String(name.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" })
    }
}
