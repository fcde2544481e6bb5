import Foundation
import NearbyTestSupport
import Testing

/// The timeline reports in a real browser (Debian's headless `chromium`, installed by
/// Scripts/bootstrap; elsewhere these tests skip without it, and fail in CI): they load with
/// nothing on the console (no script error), the DOM after the script ran holds one found bar
/// per found event the scenario's ground truth expects, a reader's wheel, drag and keys zoom
/// and pan the visible interval as docs/timeline.md says, every label is drawn in full, and
/// a screenshot of each report (and of each zoomed in) is written to
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

    /// What `explorer` did to a report and read back after each step: the visible interval
    /// (`data-view-start`, `data-view-end`, seconds), each lane's label as drawn (its lines
    /// joined by `|`) and in full (its `title`), the axis texts, the segments' full labels at
    /// the first zoom, and the panel's text on hovering, in the lane with the most ticks, the
    /// tick whose 2-pixel column holds the most, before and after zooming in 64 times on it.
    struct Exploration: Decodable {
        var initial: [String]
        var wheel: [String]
        var drag: [String]
        var reset: [String]
        var plus: [String]
        var right: [String]
        var drawn: [String]
        var full: [String]
        var axis: [String]
        var segments: [String]
        var hoverBefore: String
        var hoverAfter: String

        static func interval(_ v: [String]) -> (Double, Double) { (Double(v[0]) ?? .nan, Double(v[1]) ?? .nan) }
    }

    /// A reader's session as events the browser dispatches: five wheel notches up at 300 px
    /// into the plot, a drag 200 px to the left, `0`, `+`, `→`, `Home`; then, on the lane with
    /// the most ticks, hovering each tick to find the one read with the most neighbours,
    /// zooming in 64 times around it with the wheel, and hovering it again. It leaves its readings as JSON in `pre#exploration`.
    static let explorer = """
        (function () {
          var svg = document.getElementById('timeline'), info = document.getElementById('info');
          var r = svg.getBoundingClientRect(), L = +svg.dataset.labelWidth, y = r.top + 60;
          function view() { return [svg.dataset.viewStart, svg.dataset.viewEnd]; }
          function wheel(dy, x) {
            svg.dispatchEvent(new WheelEvent('wheel', {deltaY: dy, clientX: x, clientY: y, bubbles: true, cancelable: true}));
          }
          function key(k) { document.dispatchEvent(new KeyboardEvent('keydown', {key: k, bubbles: true, cancelable: true})); }
          function texts(list) { return Array.prototype.map.call(list, function (t) { return t.textContent; }); }
          var out = {initial: view()};
          for (var i = 0; i < 5; i++) wheel(-100, r.left + L + 300);
          out.wheel = view();
          svg.dispatchEvent(new PointerEvent('pointerdown', {button: 0, clientX: r.left + L + 500, clientY: y, bubbles: true}));
          window.dispatchEvent(new PointerEvent('pointermove', {clientX: r.left + L + 300, clientY: y, bubbles: true}));
          window.dispatchEvent(new PointerEvent('pointerup', {clientX: r.left + L + 300, clientY: y, bubbles: true}));
          out.drag = view();
          key('0'); out.reset = view();
          key('+'); out.plus = view();
          key('ArrowRight'); out.right = view();
          key('Home');
          out.segments = Array.prototype.map.call(document.querySelectorAll('#axis text.segment'), function (t) {
            return t.querySelector('title').textContent;
          });
          var labels = svg.querySelectorAll('text.label');
          out.drawn = Array.prototype.map.call(labels, function (t) { return texts(t.querySelectorAll('tspan')).join('|'); });
          out.full = Array.prototype.map.call(labels, function (t) { return t.querySelector('title').textContent; });
          var densest = null;
          svg.querySelectorAll('g.z').forEach(function (z) {
            if (!densest || z.querySelectorAll('line.tick').length > densest.querySelectorAll('line.tick').length) densest = z;
          });
          function count(text) { var m = /^([0-9]+) at /.exec(text); return m ? +m[1] : 1; }
          var tick = null;
          out.hoverBefore = ''; out.hoverAfter = '';
          (densest ? densest.querySelectorAll('line.tick') : []).forEach(function (t) {
            t.dispatchEvent(new MouseEvent('mouseover', {bubbles: true}));
            if (!tick || count(info.textContent) > count(out.hoverBefore)) { tick = t; out.hoverBefore = info.textContent; }
          });
          if (tick) {
            var x = tick.getBoundingClientRect().left;
            wheel(-Math.log(64) / 0.0015, x);
            tick.dispatchEvent(new MouseEvent('mouseover', {bubbles: true}));
            out.hoverAfter = info.textContent;
          }
          out.axis = texts(document.querySelectorAll('#axis text.axis'));
          var pre = document.createElement('pre');
          pre.id = 'exploration';
          pre.textContent = JSON.stringify(out);
          document.body.appendChild(pre);
        })();
        """

    /// Loads a copy of `html` with `explorer` appended, returns what it read, and keeps a
    /// screenshot of where it left the view as `NAME-zoomed.png`.
    static func explore(_ html: String, name: String) throws -> (Exploration, Chromium.Load) {
        let page = try String(contentsOfFile: html, encoding: .utf8)
        let copy = screenshots + "/\(name)-explored.html"
        try page.replacingOccurrences(of: "</body>", with: "<script>\n\(explorer)\n</script></body>")
            .write(toFile: copy, atomically: true, encoding: .utf8)
        let load = try Chromium.load(copy)
        let json = try #require(load.dom.firstMatch(of: /<pre id="exploration">(.*?)<\/pre>/)?.1)
        let text = String(json).replacingOccurrences(of: "&amp;", with: "&").replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&quot;", with: "\"")
        let exploration = try JSONDecoder().decode(Exploration.self, from: Data(text.utf8))
        let png = screenshots + "/\(name)-zoomed.png"
        try Chromium.screenshot(copy, to: png)
        #expect(isPNG(png))
        return (exploration, load)
    }

    /// The zoom and pan docs/timeline.md gives: a wheel notch up zooms in around the pointer, a
    /// drag to the left shows later time at the same zoom, `0` shows everything again, `+`
    /// halves the visible interval, `→` moves it a tenth of the plot later.
    /// On an axis cut into segments time is not linear in x: only the directions are checked.
    static func checkZoomAndPan(_ e: Exploration, name: String, linear: Bool = true) {
        let initial = Exploration.interval(e.initial), wheel = Exploration.interval(e.wheel)
        let drag = Exploration.interval(e.drag), plus = Exploration.interval(e.plus)
        let right = Exploration.interval(e.right)
        let width = { (v: (Double, Double)) in v.1 - v.0 }
        #expect(width(initial) > 0, "\(name)")
        #expect(wheel.0 >= initial.0 && wheel.1 <= initial.1, "\(name): \(e.wheel) in \(e.initial)")
        #expect(width(wheel) < width(initial) / 2, "\(name): \(e.wheel)")
        #expect(drag.0 > wheel.0, "\(name): \(e.drag) after \(e.wheel)")
        #expect(e.reset == e.initial, "\(name)")
        #expect(right.0 > plus.0, "\(name): \(e.right)")
        guard linear else {
            #expect(width(plus) < width(initial))
            return
        }
        #expect(abs(width(drag) - width(wheel)) <= width(wheel) * 0.01 + 1e-6, "\(name)")
        #expect(abs(width(plus) / width(initial) - 0.5) < 0.01, "\(name): \(e.plus)")
        #expect(abs(width(right) - width(plus)) <= width(plus) * 0.01, "\(name): \(e.right)")
    }

    /// Every lane's label is drawn whole (its lines hold its full text, wrapped at spaces or
    /// anywhere in a long word, never cut short), so lanes that differ read differently.
    static func checkLabels(_ e: Exploration, name: String) {
        let squeezed = { (s: String) in s.filter { !$0.isWhitespace && $0 != "|" } }
        #expect(e.drawn.count == e.full.count && !e.drawn.isEmpty, "\(name)")
        for (drawn, full) in zip(e.drawn, e.full) {
            #expect(squeezed(drawn) == squeezed(full), "\(name): drawn \(drawn) for \(full)")
            #expect(!drawn.contains("…") || full.contains("…"), "\(name): \(drawn)")
        }
    }

    @Test(arguments: ["office-walk", "crowded"])
    func replayReportZoomsPansAndShowsEveryLabelWhole(_ name: String) throws {
        guard Self.browser() else { return }
        let (arguments, expected) = try ReplayTimelineTests.vector(name)
        try FileManager.default.createDirectory(atPath: Self.screenshots, withIntermediateDirectories: true)
        let html = Self.screenshots + "/replay-\(name)-to-explore.html"
        #expect(try CommandLineTool.run(arguments + ["--html", html]).status == 0)
        let (e, load) = try Self.explore(html, name: "replay-\(name)")
        #expect(load.console.isEmpty, "\(load.console)")
        Self.checkZoomAndPan(e, name: name)
        Self.checkLabels(e, name: name)
        // The whole replay is in view at first: every expected event's time.
        let initial = Exploration.interval(e.initial)
        for event in expected {
            let t = (event["time"] as? NSNumber)?.doubleValue ?? .nan
            #expect(t >= initial.0 && t <= initial.1, "\(name): event at \(t) outside \(e.initial)")
        }
        // Lanes of one subscription name different messages: their labels differ.
        #expect(Set(e.full).count == e.full.count || name != "office-walk", "\(e.full)")
        #expect(e.axis.contains { $0.hasSuffix(" s") })
        #expect(!e.hoverBefore.isEmpty && !e.hoverBefore.hasPrefix("Hover over"), "\(e.hoverBefore)")
    }

    /// Three captures from 2023 and 2026 (Captures/systematic, Captures/synthetic/crowded,
    /// Captures/bumble): the axis has a stretch per capture, each labelled with the UTC time of
    /// its first advertisement as `decode` gives it; zoom and pan work across the gaps; and the
    /// densest tick column of the densest lane reads as fewer advertisements once zoomed in 64
    /// times (ticks within 2 pixels are read as one, and zooming parts them).
    @Test func decodeReportOfCapturesYearsApartHasAStretchEachAndZooms() throws {
        guard Self.browser() else { return }
        try FileManager.default.createDirectory(atPath: Self.screenshots, withIntermediateDirectories: true)
        let files = DecodeTimelineTests.yearsApart
        let html = Self.screenshots + "/decode-years-apart.html"
        let run = try CommandLineTool.run(["decode", "--html", html] + files)
        #expect(run.status == 0, "\(run.stderr)")
        let (e, load) = try Self.explore(html, name: "decode-years-apart")
        #expect(load.console.isEmpty, "\(load.console)")
        Self.checkZoomAndPan(e, name: "decode", linear: false)
        Self.checkLabels(e, name: "decode")
        var firsts: [String] = []
        for file in files {
            let times = try CommandLineTool.run(["decode", file]).stdoutLines.compactMap { line -> String? in
                guard line.contains(#""data":""#), !line.contains(#""data":"""#) else { return nil }
                return line.firstMatch(of: /"time":([0-9]+\.[0-9]{6})/).map { String($0.1) }
            }
            let first = try #require(times.min { Double($0)! < Double($1)! })
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
            let whole = Date(timeIntervalSince1970: Double(first.prefix { $0 != "." })!)
            firsts.append(formatter.string(from: whole) + "." + first.split(separator: ".")[1] + "Z")
        }
        #expect(e.segments == firsts.sorted(), "\(e.segments)")
        let count = { (text: String) in text.firstMatch(of: #/^([0-9]+) at /#).flatMap { Int($0.1) } ?? 1 }
        #expect(count(e.hoverBefore) > count(e.hoverAfter), "\(e.hoverBefore) / \(e.hoverAfter)")
        #expect(e.hoverBefore.contains("\nfirst: ") && e.hoverBefore.contains("\nlast: "), "\(e.hoverBefore)")
    }
}
