import Foundation
import NearbyJSON
import NearbyRunner
import NearbyTestSupport
import Testing

/// `coverage` (docs/spec/README.md, "Clauses"): every clause of docs/spec/ is held by a vector
/// (or, marked so, by a test), every vector names clauses and flags that exist, and
/// docs/coverage.md is the page the command writes.
struct ClauseCoverageTests {
    static let readme = """
        # Spec

        ```markdown
        - **EXAMPLE-1** Not a clause: it is in a code block. [X]
        ```

        ## Sources

        | tag | source |
        |---|---|
        | `CORE` | the core |
        | `PROJECT` | us |
        """

    /// A vector file with one frame vector citing `clauses` and `flags`.
    static func vectorFile(_ clauses: [String], flags: [String] = []) -> String {
        let c = clauses.map { "\"\($0)\"" }.joined(separator: ", ")
        let f = flags.map { "\"\($0)\"" }.joined(separator: ", ")
        return #"{"vectorFile": 1, "vectors": [{"id": "frame/a", "kind": "frame", "description": "d", "clauses": ["#
            + c + #"], "flags": ["# + f + #"], "source": "hand", "verdict": "valid", "#
            + #""input": {"adData": ""}, "expect": {"beacons": []}}]}"#
    }

    /// The specification folder, a vector file, a flag registry and a tests folder.
    static func fixture(
        page: String, vectors: String, flags: String = #"{"flagRegistry": 1, "flags": {"Truncated": "cut"}}"#,
        test: String = ""
    ) -> (TemporaryDirectory, ClauseCoverage) {
        let dir = TemporaryDirectory()
        try! FileManager.default.createDirectory(atPath: dir.file("spec"), withIntermediateDirectories: true)
        try! FileManager.default.createDirectory(atPath: dir.file("Tests"), withIntermediateDirectories: true)
        _ = dir.write(Array(readme.utf8), to: "spec/README.md")
        _ = dir.write(Array(page.utf8), to: "spec/page.md")
        _ = dir.write(Array(vectors.utf8), to: "v.json")
        _ = dir.write(Array(flags.utf8), to: "flags.json")
        _ = dir.write(Array(test.utf8), to: "Tests/SomeTests.swift")
        let coverage = ClauseCoverage.load(
            specification: dir.file("spec"), vectors: [dir.file("v.json")], flags: dir.file("flags.json"),
            tests: dir.file("Tests"))
        return (dir, coverage)
    }

    @Test func theRepositoryHoldsEveryClauseAndItsPageIsUpToDate() throws {
        let root = RepositoryPaths.root
        let coverage = ClauseCoverage.load(
            specification: root + "/docs/spec", vectors: [root + "/Vectors"],
            flags: root + "/Vectors/schema/flags.json", tests: root + "/Tests")
        #expect(coverage.problems.isEmpty, "\(coverage.problems.prefix(40).joined(separator: "\n"))")
        #expect(coverage.rows.count >= 100, "the specification has at least a hundred clauses")
        let committed = String(decoding: try JSONFile.read(root + "/docs/coverage.md"), as: UTF8.self)
        #expect(
            committed == coverage.markdown(),
            "docs/coverage.md is out of date (run `swift run nearby-conformance coverage` and commit it)")
    }

    @Test func aClauseIsAnIdInBoldEndingWithAKnownSource() {
        let page = """
            # Page

            - **PAGE-1** Held by the vector. [CORE 4/E/7.7.65.2]
            - **PAGE-2** Continues
              on a second line. [PROJECT].
            - **PAGE-3** Has no source.
            - **PAGE-4** Cites an unknown tag. [NOPE 1]
            - **PAGE-1** Reuses an id. [CORE]
            - *(informative)* not a clause
            """
        let (dir, c) = Self.fixture(page: page, vectors: Self.vectorFile(["PAGE-1", "PAGE-2", "PAGE-3", "PAGE-4"]))
        defer { dir.remove() }
        #expect(c.rows.map(\.clause.id) == ["PAGE-1", "PAGE-2", "PAGE-3", "PAGE-4"])
        #expect(c.rows[1].clause.text == "Continues on a second line. [PROJECT].")
        #expect(
            c.problems == [
                "page.md:6: PAGE-3 does not end with its source in brackets ([TAG where])",
                "page.md:7: PAGE-4 cites [NOPE], which is not a source tag of README.md",
                "page.md:8: PAGE-1 is already the id of a clause at page.md:3",
            ])
    }

    @Test func aClauseNoVectorCitesIsAProblemAndSoIsAnUnknownClauseOrFlag() {
        let page = "- **PAGE-1** One. [CORE]\n- **PAGE-2** Two. [CORE]\n"
        let (dir, c) = Self.fixture(page: page, vectors: Self.vectorFile(["PAGE-1", "PAGE-9"], flags: ["Nope"]))
        defer { dir.remove() }
        #expect(c.problems.count == 3)
        #expect(c.problems.contains { $0.contains("cites PAGE-9, which no page of the specification defines") })
        #expect(c.problems.contains { $0.contains("flag Nope is not in the flag registry") })
        #expect(c.problems.contains("page.md:2: PAGE-2 has no vector"))
        #expect(c.rows[0].vectors == ["frame/a"])
    }

    @Test func aClauseHeldByTestsIsHeldOnlyByATestThatCitesIt() {
        let page = "- **PAGE-1** One. [CORE]\n- **PAGE-2** *(held by tests)* Two. [PROJECT]\n"
        let uncited = Self.fixture(page: page, vectors: Self.vectorFile(["PAGE-1"]), test: "// PAGE-21 is another")
        defer { uncited.0.remove() }
        #expect(uncited.1.problems == ["page.md:2: PAGE-2 is held by tests, but no test cites it"])
        let cited = Self.fixture(page: page, vectors: Self.vectorFile(["PAGE-1"]), test: "/// PAGE-2: the test")
        defer { cited.0.remove() }
        #expect(cited.1.problems.isEmpty)
        #expect(cited.1.rows[1].tests == ["SomeTests.swift"])
        #expect(cited.1.markdown().contains("| `PAGE-2` | Two. | tests: `SomeTests.swift` |"))
    }
}
