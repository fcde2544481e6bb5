import Foundation

/// Runs the built `nearby-conformance` executable as a child process.
public enum CommandLineTool {
    public static var executable: String? {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("nearby-conformance").path,
            RepositoryPaths.root + "/.build/debug/nearby-conformance",
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    public struct Result: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
        public var stdoutLines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: true).map(String.init) }
    }

    /// Runs the tool with `arguments` and waits for it; output is collected through files so
    /// large outputs cannot block the child.
    public static func run(_ arguments: [String]) throws -> Result {
        guard let binary = executable else { throw CocoaError(.fileNoSuchFile) }
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let outPath = dir.file("stdout"), errPath = dir.file("stderr")
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        try process.run()
        process.waitUntilExit()
        return Result(status: process.terminationStatus,
                      stdout: try String(contentsOfFile: outPath, encoding: .utf8),
                      stderr: try String(contentsOfFile: errPath, encoding: .utf8))
    }
}
