import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import NearbyRunner
import Testing

/// The JUnit XML report has the structure of the common JUnit schema (Ant/Jenkins
/// junit-10.xsd): `testsuites` > `testsuite` (name, tests, failures, errors, skipped) >
/// `testcase` (name, classname) with at most one `failure`, `error` or `skipped` child
/// carrying a `message`; counts agree with the children; the document is well-formed XML.
@Suite struct JUnitReportTests {
    static let results = [
        VectorResult(id: "a/pass", kind: "frame", file: "f.json", status: .pass),
        VectorResult(id: "b/fail", kind: "scenario", file: "s.json", status: .fail, message: "event #1: \"x\" < y & z",
                     details: ["expected: {\"a\":1}", "got: \u{1}control"]),
        VectorResult(id: "c/error", kind: "scenario", file: "s.json", status: .error, message: "missing file: x"),
        VectorResult(id: "d/skip", kind: "capture", file: "c.json", status: .skipped, message: "skipped: absent: y"),
    ]

    @Test func reportHasTheJUnitStructureAndConsistentCounts() throws {
        let xml = CheckReport.junit(Self.results)
        let doc = try XMLDocument(data: Data(xml.utf8))
        let root = try #require(doc.rootElement())
        #expect(root.name == "testsuites")
        func int(_ e: XMLElement, _ name: String) -> Int? { e.attribute(forName: name)?.stringValue.flatMap { Int($0) } }
        #expect(int(root, "tests") == 4 && int(root, "failures") == 1 && int(root, "errors") == 1 && int(root, "skipped") == 1)
        let suites = root.elements(forName: "testsuite")
        #expect(suites.map { $0.attribute(forName: "name")?.stringValue } == ["capture", "frame", "scenario"])
        var seen = 0
        for suite in suites {
            let cases = suite.elements(forName: "testcase")
            #expect(suite.children?.count == cases.count, "a testsuite holds only testcases here")
            #expect(int(suite, "tests") == cases.count)
            #expect(int(suite, "failures") == cases.filter { !$0.elements(forName: "failure").isEmpty }.count)
            #expect(int(suite, "errors") == cases.filter { !$0.elements(forName: "error").isEmpty }.count)
            #expect(int(suite, "skipped") == cases.filter { !$0.elements(forName: "skipped").isEmpty }.count)
            for c in cases {
                seen += 1
                #expect(c.attribute(forName: "name") != nil && c.attribute(forName: "classname") != nil)
                let children = c.children?.compactMap { $0 as? XMLElement } ?? []
                #expect(children.count <= 1)
                for child in children {
                    #expect(["failure", "error", "skipped"].contains(child.name ?? ""))
                    #expect(child.attribute(forName: "message") != nil)
                }
            }
        }
        #expect(seen == 4)
        let failure = try #require(doc.rootElement()?.elements(forName: "testsuite").last?.elements(forName: "testcase").first?.elements(forName: "failure").first)
        #expect(failure.attribute(forName: "message")?.stringValue == "event #1: \"x\" < y & z")
        #expect(failure.stringValue?.contains("got: \u{FFFD}control") == true, "control characters XML cannot carry are replaced")
    }

    @Test func jsonReportCountsAndListsEveryVector() throws {
        let json = CheckReport.json(Self.results)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let summary = try #require(object["summary"] as? [String: Int])
        #expect(summary == ["total": 4, "passed": 1, "failed": 1, "errors": 1, "skipped": 1])
        #expect((object["vectors"] as? [[String: Any]])?.compactMap { $0["status"] as? String } == ["pass", "fail", "error", "skipped"])
    }
}
