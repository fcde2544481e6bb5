#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's environment variables, read (never set: the package passes an environment
/// to the processes it starts instead).
public enum Environment {
    /// The value of `name`, or nil when it is not set.
    public static func value(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// The folder for temporary files: `TMPDIR` when set and not empty, else `/tmp`.
    public static var temporaryFolder: String {
        value("TMPDIR").flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    }
}
