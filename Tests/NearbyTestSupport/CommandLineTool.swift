import Foundation

/// Runs the built `nearby-conformance` executable as a child process.
public enum CommandLineTool {
    public static var executable: String? {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
                "nearby-conformance"
            ).path,
            RepositoryPaths.root + "/.build/debug/nearby-conformance",
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    public struct Result: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
        public var stdoutLines: [String] {
            stdout.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        }
    }

    /// Runs the tool with `arguments` (in `directory`, or this process's current directory)
    /// and waits for it; output is collected through files so large outputs cannot block the
    /// child. `input`, when given, is written to the child's standard input through a pipe
    /// (from another thread, so that a child that reads it late cannot block this one).
    /// `environment` adds to (or replaces in) this process's environment.
    public static func run(
        _ arguments: [String], in directory: String? = nil, input: [UInt8]? = nil, environment: [String: String] = [:]
    ) throws -> Result {
        guard let binary = executable else { throw CocoaError(.fileNoSuchFile) }
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let outPath = dir.file("stdout"), errPath = dir.file("stderr")
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        let pipe = input.map { _ in Pipe() }
        if let pipe { process.standardInput = pipe }
        try process.run()
        if let pipe, let input {
            let writer = Thread {
                pipe.fileHandleForWriting.write(Data(input))
                try? pipe.fileHandleForWriting.close()
            }
            writer.start()
        }
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus,
            stdout: try String(contentsOfFile: outPath, encoding: .utf8),
            stderr: try String(contentsOfFile: errPath, encoding: .utf8))
    }

    /// Runs the tool like `run`, and gives its peak resident memory (MiB) too: `ru_maxrss`
    /// of the child as its parent's `wait4` reports it.
    ///
    /// The parent is a `python3` process that forks the child, not this process: Linux
    /// carries a process's peak over `execve`, and a child spawned from the test process
    /// (posix_spawn shares its memory until the exec) would report the test process's peak
    /// when that is higher. Python's is about 10 MiB, below any run of the tool. Call only
    /// when `Python.has(["os"])`.
    public static func runMeasuringPeakMemory(_ arguments: [String]) throws -> (result: Result, peakMiB: Double) {
        guard let binary = executable else { throw CocoaError(.fileNoSuchFile) }
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let outPath = dir.file("stdout"), errPath = dir.file("stderr")
        let script = """
            import os, sys
            pid = os.fork()
            if pid == 0:
                for fd, path in ((1, sys.argv[1]), (2, sys.argv[2])):
                    os.dup2(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644), fd)
                os.execv(sys.argv[3], sys.argv[3:])
            _, status, usage = os.wait4(pid, 0)
            print(os.waitstatus_to_exitcode(status), usage.ru_maxrss)
            """
        let (status, output) = try Python.run(["-c", script, outPath, errPath, binary] + arguments)
        let fields = output.split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        guard status == 0, fields.count == 2, let code = Int32(fields[0]), let kib = Double(fields[1]) else {
            throw CocoaError(
                .executableLoad, userInfo: [NSLocalizedDescriptionKey: "python3 could not run the tool: \(output)"])
        }
        let result = Result(
            status: code, stdout: try String(contentsOfFile: outPath, encoding: .utf8),
            stderr: try String(contentsOfFile: errPath, encoding: .utf8))
        return (result, kib / 1024)  // ru_maxrss is in KiB on Linux
    }
}

extension CommandLineTool {
    /// The tool running in the background (`start`), its output going to files.
    public final class Running {
        let process = Process()
        let directory = TemporaryDirectory()

        init(_ binary: String, _ arguments: [String]) throws {
            _ = FileManager.default.createFile(atPath: directory.file("stdout"), contents: nil)
            _ = FileManager.default.createFile(atPath: directory.file("stderr"), contents: nil)
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = arguments
            process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: directory.file("stdout")))
            process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: directory.file("stderr")))
            try process.run()
        }

        /// Waits until the tool's standard error holds `text` (true), or it ended or
        /// `timeout` seconds passed (false).
        public func waitForStandardError(containing text: String, timeout: Double) -> Bool {
            let deadline = Date().addingTimeInterval(timeout)
            while Date() < deadline {
                if let e = try? String(contentsOfFile: directory.file("stderr"), encoding: .utf8), e.contains(text) {
                    return true
                }
                if !process.isRunning { return false }
                Thread.sleep(forTimeInterval: 0.05)
            }
            return false
        }

        /// Sends `signal` (SIGINT, SIGTERM…) to the tool.
        public func send(_ signal: Int32) { kill(process.processIdentifier, signal) }

        /// Waits for the tool to end, killing it (SIGKILL) after `timeout` seconds, and
        /// gives its status (a killed tool's is 128 + 9) and output.
        public func finish(timeout: Double) throws -> Result {
            let deadline = Date().addingTimeInterval(timeout)
            while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            defer { directory.remove() }
            let status =
                process.terminationReason == .uncaughtSignal
                ? 128 + process.terminationStatus : process.terminationStatus
            return Result(
                status: status, stdout: try String(contentsOfFile: directory.file("stdout"), encoding: .utf8),
                stderr: try String(contentsOfFile: directory.file("stderr"), encoding: .utf8))
        }

        deinit {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
    }

    /// Starts the tool with `arguments` in the background.
    public static func start(_ arguments: [String]) throws -> Running {
        guard let binary = executable else { throw CocoaError(.fileNoSuchFile) }
        return try Running(binary, arguments)
    }
}
