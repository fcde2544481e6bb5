import NearbySystem
import Synchronization

/// The one file per process and thread through which fuzz inputs reach the entry points
/// that read files (capture containers, JSON files). It lives in `/dev/shm` when there is
/// one, so no input touches a disk, and is removed when the process exits. Each thread has
/// its own (the unit tests check several targets at once; a fuzzer has one thread). In the
/// folder `NEARBY_FUZZ_SCRATCH` names (`FuzzDriver.scratchVariable`), its name leaves out
/// the process id.
enum ScratchFile {
    /// The paths made so far, by thread and suffix: each is worked out once, not on every
    /// input.
    private static let paths = Mutex<[String: String]>([:])

    /// The scratch path for files of this suffix (`.pcap`, `.json`, …) on this thread.
    static func path(suffix: String) -> String {
        let thread = CurrentProcess.threadNumber
        let key = "\(thread)\(suffix)"
        return paths.withLock { paths in
            if let p = paths[key] { return p }
            let p: String
            if let folder = Environment.value(FuzzDriver.scratchVariable) {
                p = "\(folder)/nearby-fuzz-\(String(thread, radix: 36))\(suffix)"
            } else {
                let folder = FileSystem.isAccessible("/dev/shm", .write) ? "/dev/shm" : Environment.temporaryFolder
                p = "\(folder)/nearby-fuzz-\(CurrentProcess.id)-\(String(thread, radix: 36))\(suffix)"
            }
            if paths.isEmpty {
                CurrentProcess.atExit {
                    ScratchFile.paths.withLock { for p in $0.values { try? FileSystem.remove(p) } }
                }
            }
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
        guard
            let file = try? FileDescriptor.open(
                path, .writeOnly, options: [.create, .truncate, .closeOnExec],
                permissions: [.ownerReadWrite, .groupRead, .otherRead])
        else { return false }
        defer { try? file.close() }
        return (try? file.writeAll(bytes)) != nil
    }
}
