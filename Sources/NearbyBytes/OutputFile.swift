#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a whole file at once, replacing it: for outputs built in memory (a btsnoop file,
/// a ground truth, a report).
public enum OutputFile {
    /// Creates or truncates `path` and writes `bytes` to it.
    public static func write(_ bytes: [UInt8], to path: String) throws(OutputFileError) {
        guard let f = fopen(path, "wb") else { throw OutputFileError(path: path, errno: errno) }
        let written = fwrite(bytes, 1, bytes.count, f)
        let writeErrno = errno
        let closed = fclose(f)
        guard written == bytes.count else { throw OutputFileError(path: path, errno: writeErrno) }
        guard closed == 0 else { throw OutputFileError(path: path, errno: errno) }
    }
}
