import NearbyDecode
import NearbyJSON

/// The clauses of the specification pages (docs/spec/*.md) and what is wrong with them: a
/// clause without a known source tag, an id used twice. The source tags are the first column
/// of the "Sources" table of the folder's README.md.
public struct Specification: Sendable {
    public private(set) var clauses: [SpecificationClause] = []
    /// The tags a clause may cite (`CORE`, `EDDYSTONE`, `PROJECT`, …).
    public private(set) var sourceTags: Set<String> = []
    /// Each problem as `page:line: reason`, in page and line order.
    public private(set) var problems: [String] = []

    /// Reads every `*.md` page of `directory` (sorted by name). An unreadable folder is one
    /// problem and no clause.
    public static func load(_ directory: String) -> Specification {
        var spec = Specification()
        guard let names = FileTree.entries(of: directory) else {
            spec.problems.append("\(directory): cannot be read")
            return spec
        }
        let pages = names.filter { $0.hasSuffix(".md") }.sorted()
        var texts: [(String, String)] = []
        for page in pages {
            do {
                texts.append((page, String(decoding: try JSONFile.read(directory + "/" + page), as: UTF8.self)))
            } catch {
                spec.problems.append("\(page): cannot be read: \(error.reason)")
            }
        }
        if let readme = texts.first(where: { $0.0 == "README.md" }) {
            spec.sourceTags = Self.sourceTags(readme.1)
        }
        if spec.sourceTags.isEmpty { spec.problems.append("README.md: no \"Sources\" table of tags") }
        var seen: [String: String] = [:]
        for (page, text) in texts {
            for clause in Self.clauses(in: text, page: page) {
                let at = "\(page):\(clause.line)"
                if let other = seen[clause.id] {
                    spec.problems.append("\(at): \(clause.id) is already the id of a clause at \(other)")
                    continue
                }
                seen[clause.id] = at
                if let tag = Self.sourceTag(of: clause.text) {
                    if !spec.sourceTags.contains(tag) {
                        spec.problems.append(
                            "\(at): \(clause.id) cites [\(tag)], which is not a source tag of README.md")
                    }
                } else {
                    spec.problems.append("\(at): \(clause.id) does not end with its source in brackets ([TAG where])")
                }
                spec.clauses.append(clause)
            }
        }
        return spec
    }

    /// The clauses of one page: list items `- **ID** …` outside code blocks, each with the
    /// indented lines that continue it. The README's example is in a code block, so it is not
    /// a clause.
    static func clauses(in text: String, page: String) -> [SpecificationClause] {
        var out: [SpecificationClause] = []
        var inCode = false
        var current: SpecificationClause?
        for (i, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = String(raw)
            if line.hasPrefix("```") {
                inCode.toggle()
                if let c = current { out.append(c) }
                current = nil
                continue
            }
            if inCode { continue }
            if let c = current, line.hasPrefix("  "), !line.allSatisfy({ $0 == " " }) {
                current!.text = c.text + " " + line.drop { $0 == " " }
                continue
            }
            if let c = current { out.append(c) }
            current = nil
            guard line.hasPrefix("- **") else { continue }
            let rest = line.dropFirst(4)
            guard let end = rest.firstRange(of: "**") else { continue }
            let id = String(rest[..<end.lowerBound])
            guard Vector.isClauseId(id) else { continue }
            var body = rest[end.upperBound...].drop { $0 == " " }
            let mark = "*(held by tests)*"
            let held = body.hasPrefix(mark)
            if held { body = body.dropFirst(mark.count).drop { $0 == " " } }
            current = SpecificationClause(id: id, page: page, line: i + 1, text: String(body), heldByTests: held)
        }
        if let c = current { out.append(c) }
        return out
    }

    /// The tag of the bracket a clause ends with (a final period allowed): `[CORE 4/E/7.7.65.2]`
    /// → `CORE`; nil when the text does not end with a bracket.
    static func sourceTag(of text: String) -> String? {
        var t = Substring(text)
        while let last = t.last, last == " " || last == "." { t = t.dropLast() }
        guard t.last == "]", let open = t.lastIndex(of: "[") else { return nil }
        let inside = t[t.index(after: open)..<t.index(before: t.endIndex)]
        let tag = inside.prefix { $0 != " " && $0 != ";" && $0 != "," }
        return tag.isEmpty ? nil : String(tag)
    }

    /// The tags of the README's "Sources" table: rows whose first cell is `` `TAG` ``.
    static func sourceTags(_ readme: String) -> Set<String> {
        var tags: Set<String> = []
        var inSources = false
        for line in readme.split(separator: "\n") {
            if line.hasPrefix("#") { inSources = line.hasSuffix(" Sources") }
            guard inSources, line.hasPrefix("| `") else { continue }
            let cell = line.dropFirst(3).prefix { $0 != "`" }
            if !cell.isEmpty { tags.insert(String(cell)) }
        }
        return tags
    }
}
