import Foundation
import NearbyTestSupport
import Testing

/// Every `docs/…` path that the sources, tests, fuzz targets and example cite exists in the
/// repository, so a reader sent to a page finds it (CONTRIBUTING.md, "Comments").
struct DocumentationPathTests {
    /// The folders whose files (sources, scripts, fixtures) are read.
    static let folders = ["Sources", "Tests", "Fuzz/Sources", "Examples/BeaconDecoder/Sources", "Scripts", "Interop"]

    /// `docs/` followed by path characters, ending before trailing punctuation; not inside a
    /// URL or a longer path (`…/docs/…`).
    static func citations(in text: String) -> [String] {
        text.matches(of: /(?:^|[^A-Za-z0-9_.\/-])(docs\/[A-Za-z0-9_.\/-]+)/.anchorsMatchLineEndings()).map { match in
            var path = String(match.output.1)
            while let last = path.last, ".,;:/".contains(last) { path.removeLast() }
            return path
        }
    }

    @Test func findsCitationsWithoutTheirTrailingPunctuation() {
        #expect(
            Self.citations(in: "see docs/spec/hci.md, and (docs/timeline.md).") == [
                "docs/spec/hci.md", "docs/timeline.md",
            ])
    }

    @Test func everyCitedDocsPathExists() throws {
        let root = RepositoryPaths.root
        var cited: [String: String] = [:]
        for folder in Self.folders {
            let files = FileManager.default.enumerator(atPath: root + "/" + folder)?.compactMap { $0 as? String } ?? []
            for file in files where [".swift", ".lua", ".py", ".sh", ""].contains(where: { file.hasSuffix($0) }) {
                guard !file.contains(".build/"), !file.hasPrefix(".build"),
                    let text = try? String(contentsOfFile: root + "/" + folder + "/" + file, encoding: .utf8)
                else { continue }
                for path in Self.citations(in: text) { cited[path] = cited[path] ?? folder + "/" + file }
            }
        }
        #expect(cited.count >= 20)
        for (path, file) in cited.sorted(by: { $0.key < $1.key }) {
            #expect(
                FileManager.default.fileExists(atPath: root + "/" + path), "\(file) cites \(path), which does not exist"
            )
        }
    }

    /// docs/architecture.md's table of modules names every folder of Sources/ (each a
    /// target), and nothing else.
    @Test func architectureListsEveryModule() throws {
        let root = RepositoryPaths.root
        let page = try String(contentsOfFile: root + "/docs/architecture.md", encoding: .utf8)
        var listed: Set<String> = []
        for line in page.split(separator: "\n") where line.hasPrefix("| `") {
            let first = line.split(separator: "|").first ?? ""
            for match in first.matches(of: /`([A-Za-z-]+)`/) { listed.insert(String(match.1)) }
        }
        let folders = try FileManager.default.contentsOfDirectory(atPath: root + "/Sources").filter {
            !$0.hasPrefix(".")
        }
        let absent = listed.subtracting(folders).sorted(), unlisted = Set(folders).subtracting(listed).sorted()
        #expect(absent.isEmpty && unlisted.isEmpty, "listed but absent: \(absent); not on the page: \(unlisted)")
    }
}
