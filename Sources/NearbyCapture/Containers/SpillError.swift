#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A temporary file for sightings that could not be made, written or read back.
struct SpillError: Error, CustomStringConvertible {
    var folder: String
    var operation: String
    var code: Int32
    var description: String {
        "cannot \(operation) in \(folder) for the sightings that do not fit in memory (TMPDIR names another folder): "
            + "\(String(cString: strerror(code)))"
    }
}
