import Foundation

/// Debian's headless `chromium`, for the tests that load the HTML timeline in a real browser.
/// Never used by the product.
public enum Chromium {
    /// `chromium` (or `chromium-browser`, `google-chrome`) on PATH, or nil.
    public static let path: String? = {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":")
        for name in ["chromium", "chromium-browser", "google-chrome"] {
            if let found = directories.map({ $0 + "/" + name }).first(where: FileManager.default.isExecutableFile) {
                return found
            }
        }
        return nil
    }()

    /// What loading a page gave: the DOM after its scripts ran, and every line the browser
    /// logged from the page's console (messages and uncaught errors).
    public struct Load: Sendable {
        public var dom: String
        public var console: [String]
    }

    /// Loads `file` headless in a window `width`×`height` pixels and returns its DOM after the
    /// scripts ran and its console lines.
    public static func load(_ file: String, width: Int = 1560, height: Int = 1000) throws -> Load {
        let (out, err) = try run([
            "--enable-logging=stderr", "--v=0", "--window-size=\(width),\(height)", "--dump-dom", "file://" + file,
        ])
        let console = err.split(separator: "\n").filter { $0.contains(":CONSOLE") }.map(String.init)
        return Load(dom: out, console: console)
    }

    /// Writes a PNG screenshot of `file` (`width`×`height` pixels) to `png`.
    public static func screenshot(_ file: String, to png: String, width: Int = 1560, height: Int = 1000) throws {
        _ = try run(["--hide-scrollbars", "--window-size=\(width),\(height)", "--screenshot=" + png, "file://" + file])
    }

    static func run(_ arguments: [String]) throws -> (String, String) {
        guard let path else { throw CocoaError(.fileNoSuchFile) }
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let out = dir.file("out"), err = dir.file("err")
        _ = FileManager.default.createFile(atPath: out, contents: nil)
        _ = FileManager.default.createFile(atPath: err, contents: nil)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: path)
        // As root (CI containers) Chromium needs --no-sandbox; its own profile folder keeps
        // runs apart; no network is reached (the report has no external resource).
        p.arguments =
            ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--user-data-dir=" + dir.file("profile")]
            + arguments
        p.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: out))
        p.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: err))
        try p.run()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw CocoaError(.fileReadCorruptFile) }
        let text = { (file: String) in (try? String(contentsOfFile: file, encoding: .utf8)) ?? "" }
        return (text(out), text(err))
    }
}
