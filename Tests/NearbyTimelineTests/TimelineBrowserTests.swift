import Foundation
import NearbyTestSupport
import Testing

/// The timeline reports in a real browser (Debian's headless `chromium`, installed by
/// Scripts/bootstrap; elsewhere these tests skip without it, and fail in CI): they load with
/// nothing on the console (no script error), the DOM after the script ran holds one found bar
/// per found event the scenario's ground truth expects, and a screenshot is written to
/// `.build/timeline-screenshots/` for a person to look at.
@Suite(.enabled(if: CommandLineTool.executable != nil, "the nearby-conformance executable is not built"))
struct TimelineBrowserTests {
    static let screenshots = RepositoryPaths.root + "/.build/timeline-screenshots"

    static func browser() -> Bool {
        if Chromium.path == nil {
            if getenv("CI") != nil { Issue.record("CI must install chromium (Scripts/bootstrap)") }
            return false
        }
        return true
    }

    static func isPNG(_ path: String) -> Bool {
        let data = (try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data()
        return data.count > 1000 && data.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    }

    @Test(arguments: ["office-walk", "bluetooth-off", "permission-revoked"])
    func replayReportLoadsCleanlyWithOneBarPerFoundEvent(_ name: String) throws {
        guard Self.browser() else { return }
        let (arguments, expected) = try ReplayTimelineTests.vector(name)
        try FileManager.default.createDirectory(atPath: Self.screenshots, withIntermediateDirectories: true)
        let html = Self.screenshots + "/replay-\(name).html"
        let run = try CommandLineTool.run(arguments + ["--html", html])
        #expect(run.status == 0, "\(run.stderr)")
        let page = try Chromium.load(html)
        #expect(page.console.isEmpty, "\(page.console)")
        #expect(page.dom.contains("Hover over a mark"))
        let bars = page.dom.components(separatedBy: #"class="m bar found"#).count - 1
        #expect(bars == expected.filter { $0["event"] as? String == "found" }.count)
        let png = Self.screenshots + "/replay-\(name).png"
        try Chromium.screenshot(html, to: png)
        #expect(Self.isPNG(png))
        print("timeline screenshot: \(png)")
    }

    @Test func decodeReportLoadsCleanly() throws {
        guard Self.browser() else { return }
        try FileManager.default.createDirectory(atPath: Self.screenshots, withIntermediateDirectories: true)
        let html = Self.screenshots + "/decode-office-walk.html"
        let capture = RepositoryPaths.root + "/Captures/synthetic/office-walk/office-walk.btsnoop"
        let run = try CommandLineTool.run(["decode", "--html", html, capture])
        #expect(run.status == 0, "\(run.stderr)")
        let page = try Chromium.load(html)
        #expect(page.console.isEmpty, "\(page.console)")
        #expect(page.dom.contains("all advertisements"))
        let png = Self.screenshots + "/decode-office-walk.png"
        try Chromium.screenshot(html, to: png)
        #expect(Self.isPNG(png))
    }
}
