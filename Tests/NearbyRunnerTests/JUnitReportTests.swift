import Foundation
import NearbyRunner
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

/// The JUnit XML report has the structure of the common JUnit schema (Ant/Jenkins
/// junit-10.xsd): `testsuites` > `testsuite` (name, tests, failures, errors, skipped) >
/// `testcase` (name, classname) with at most one `failure`, `error` or `skipped` child
/// carrying a `message`; counts agree with the children; the document is well-formed XML.
@Suite struct JUnitReportTests {
    static let results = [
        VectorResult(id: "a/pass", kind: "frame", file: "f.json", status: .pass),
        VectorResult(
            id: "b/fail", kind: "scenario", file: "s.json", status: .fail, message: "event #1: \"x\" < y & z",
            details: ["expected: {\"a\":1}", "got: \u{1}control"]),
        VectorResult(id: "c/error", kind: "scenario", file: "s.json", status: .error, message: "missing file: x"),
        VectorResult(id: "d/skip", kind: "capture", file: "c.json", status: .skipped, message: "skipped: absent: y"),
    ]

    @Test func reportHasTheJUnitStructureAndConsistentCounts() throws {
        let xml = CheckReport.junit(Self.results)
        let doc = try XMLDocument(data: Data(xml.utf8))
        let root = try #require(doc.rootElement())
        #expect(root.name == "testsuites")
        func int(_ e: XMLElement, _ name: String) -> Int? {
            e.attribute(forName: name)?.stringValue.flatMap { Int($0) }
        }
        #expect(
            int(root, "tests") == 4 && int(root, "failures") == 1 && int(root, "errors") == 1
                && int(root, "skipped") == 1)
        let suites = root.elements(forName: "testsuite")
        #expect(suites.map { $0.attribute(forName: "name")?.stringValue } == ["capture", "frame", "scenario"])
        var seen = 0
        for suite in suites {
            let cases = suite.elements(forName: "testcase")
            #expect(suite.children?.count == cases.count, "a check report's testsuite holds only testcases")
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
        let failure = try #require(
            doc.rootElement()?.elements(forName: "testsuite").last?.elements(forName: "testcase").first?.elements(
                forName: "failure"
            ).first)
        #expect(failure.attribute(forName: "message")?.stringValue == "event #1: \"x\" < y & z")
        #expect(
            failure.stringValue?.contains("got: \u{FFFD}control") == true,
            "control characters XML cannot carry are replaced")
    }

    /// GitLab and Jenkins read `file` and `time` on test cases, and `time` and `timestamp`
    /// (xs:dateTime without a zone, junit-10.xsd) on suites; a validate report carries the
    /// implementation as properties of each suite, and in the JSON report.
    @Test func reportCarriesTimesTheTimestampTheFileAndTheImplementation() throws {
        var timed = Self.results
        for i in timed.indices { timed[i].seconds = 0.0125 * Double(i + 1) }
        let subject = CheckReport.Subject(name: "impl <x>", version: "1.2", command: "python3 a.py")
        let xml = CheckReport.junit(timed, timestamp: "2026-11-25T01:02:03", implementation: subject)
        let doc = try XMLDocument(data: Data(xml.utf8))
        let root = try #require(doc.rootElement())
        #expect(root.attribute(forName: "timestamp")?.stringValue == "2026-11-25T01:02:03")
        #expect(root.attribute(forName: "time")?.stringValue == "0.125", "0.0125 + 0.025 + 0.0375 + 0.05 s")
        let scenario = try #require(
            root.elements(forName: "testsuite").first { $0.attribute(forName: "name")?.stringValue == "scenario" })
        #expect(
            scenario.attribute(forName: "time")?.stringValue == "0.063",
            "0.025 + 0.0375 s, to the millisecond (half up)")
        #expect(scenario.attribute(forName: "timestamp")?.stringValue == "2026-11-25T01:02:03")
        let cases = scenario.elements(forName: "testcase")
        #expect(cases.map { $0.attribute(forName: "file")?.stringValue } == ["s.json", "s.json"])
        #expect(cases.map { $0.attribute(forName: "time")?.stringValue } == ["0.025", "0.038"])
        let properties = scenario.elements(forName: "properties").first?.elements(forName: "property") ?? []
        let pairs = properties.map {
            ($0.attribute(forName: "name")?.stringValue ?? "", $0.attribute(forName: "value")?.stringValue ?? "")
        }
        #expect(pairs.map(\.0) == ["implementation.name", "implementation.version", "implementation.command"])
        #expect(pairs.map(\.1) == ["impl <x>", "1.2", "python3 a.py"])
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(CheckReport.json(timed, implementation: subject).utf8))
                as? [String: Any])
        #expect(
            json["implementation"] as? [String: String] == [
                "name": "impl <x>", "version": "1.2", "command": "python3 a.py",
            ])
    }

    @Test func jsonReportCountsAndListsEveryVector() throws {
        let json = CheckReport.json(Self.results)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let summary = try #require(object["summary"] as? [String: Int])
        #expect(summary == ["total": 4, "passed": 1, "failed": 1, "errors": 1, "skipped": 1])
        #expect(
            (object["vectors"] as? [[String: Any]])?.compactMap { $0["status"] as? String } == [
                "pass", "fail", "error", "skipped",
            ])
    }
}
