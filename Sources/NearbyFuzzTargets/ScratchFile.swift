import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one file per process and thread through which fuzz inputs reach the entry points
/// that read files (capture containers, JSON files). It lives in `/dev/shm` when there is
/// one, so no input touches a disk, and is removed when the process exits. Each thread has
/// its own (the unit tests check several targets at once; a fuzzer has one thread).
enum ScratchFile {
    /// The paths made so far, by thread and suffix: each is worked out once, not on every
    /// input.
    private static let paths = Mutex<[String: String]>([:])

    /// The scratch path for files of this suffix (`.pcap`, `.json`, …) on this thread.
    static func path(suffix: String) -> String {
        #if canImport(Darwin)
        let thread = UInt(bitPattern: pthread_self())
        #else
        let thread = UInt(pthread_self())
        #endif
        let key = "\(thread)\(suffix)"
        return paths.withLock { paths in
            if let p = paths[key] { return p }
            let folder =
                access("/dev/shm", W_OK) == 0 ? "/dev/shm" : (getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp")
            let p = "\(folder)/nearby-fuzz-\(getpid())-\(String(thread, radix: 36))\(suffix)"
            if paths.isEmpty { atexit { ScratchFile.paths.withLock { for p in $0.values { unlink(p) } } } }
            paths[key] = p
            return p
        }
    }

    /// Replaces the scratch file for `suffix` with `bytes` and returns its path.
    static func write(_ bytes: UnsafeRawBufferPointer, suffix: String) -> String {
        let p = path(suffix: suffix)
        _ = write(bytes, to: p)
        return p
    }

    /// Writes `bytes` to `path` (created or truncated); false when that fails.
    @discardableResult
    static func write(_ bytes: [UInt8], to path: String) -> Bool {
        bytes.withUnsafeBytes { write($0, to: path) }
    }

    static func write(_ bytes: UnsafeRawBufferPointer, to path: String) -> Bool {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return writeAll(fd, bytes)
    }
}

/// Writes all of `bytes` to `fd` (the C `write`, which the enum's own `write` hides).
private func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
    var done = 0
    while done < bytes.count {
        let n = write(fd, bytes.baseAddress! + done, bytes.count - done)
        if n <= 0 { return false }
        done += n
    }
    return true
}
