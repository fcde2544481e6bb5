import Foundation

/// Runs `python3` (found on PATH) for the tests that cross-check against an independent
/// Python implementation. Never used by the product.
public enum Python {
    /// Whether python3 can import every module in `modules`.
    public static func has(_ modules: [String]) -> Bool {
        (try? run(["-c", "import " + modules.joined(separator: ", ")]).status) == 0
    }

    /// Runs python3 with `arguments`; standard output and standard error are collected
    /// together.
    public static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3"] + arguments
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = pipe
        try p.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
