#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a whole file at once, replacing it: for outputs built in memory (btsnoop,
/// pcapng, reports).
public enum OutputFile {
    public static func write(_ bytes: [UInt8], to path: String) throws(CaptureFileError) {
        guard let f = fopen(path, "wb") else {
            throw CaptureFileError(path: path, reason: "cannot write: " + String(cString: strerror(errno)))
        }
        let written = fwrite(bytes, 1, bytes.count, f)
        let closed = fclose(f)
        guard written == bytes.count, closed == 0 else {
            throw CaptureFileError(path: path, reason: "cannot write: " + String(cString: strerror(errno)))
        }
    }
}
