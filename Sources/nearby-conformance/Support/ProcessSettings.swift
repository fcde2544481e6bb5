#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Process-wide settings a command makes before it starts its work.
enum ProcessSettings {
    /// Makes a write to a pipe whose reader has gone fail with EPIPE instead of ending this
    /// process: for the commands that talk to other implementations (`validate`, `matrix`).
    static func ignoreBrokenPipes() {
        signal(SIGPIPE, SIG_IGN)
    }
}
