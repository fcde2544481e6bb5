#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An anonymous temporary file that values too many to hold in memory are written to and
/// read back from, by byte offset. It is created in `folder` (by default `$TMPDIR`, else
/// `/tmp`) and unlinked at once, so it has no name and disappears with the process, however
/// that ends.
public final class SpillFile {
    private let descriptor: Int32
    /// Bytes written so far: the file's size, and the offset the next `append` writes at.
    public private(set) var size = 0
    /// The folder the file was made in, for error messages.
    public let folder: String
    /// What the file holds, for error messages (`SpillError.purpose`).
    public let purpose: String

    /// Makes the file; `purpose` ends any error message (`the sightings that do not fit in
    /// memory`).
    public init(folder: String? = nil, purpose: String) throws(SpillError) {
        let folder = folder ?? getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        self.folder = folder
        self.purpose = purpose
        var template = Array("\(folder)/nearby-spill-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { path in
            let fd = mkstemp(path.baseAddress!)
            if fd >= 0 { unlink(path.baseAddress!) }
            return fd
        }
        guard fd >= 0 else {
            throw SpillError(folder: folder, operation: "create a temporary file", code: errno, purpose: purpose)
        }
        descriptor = fd
    }

    deinit { close(descriptor) }

    /// Writes `bytes` at the end of the file.
    public func append(_ bytes: UnsafeRawBufferPointer) throws(SpillError) {
        var done = 0
        while done < bytes.count {
            let n = write(descriptor, bytes.baseAddress! + done, bytes.count - done)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw failure("write the temporary file", code: n < 0 ? errno : ENOSPC) }
            done += n
        }
        size += bytes.count
    }

    /// Fills `buffer` with the bytes at `offset`, which must lie within what was written.
    public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws(SpillError) {
        precondition(offset >= 0 && offset + buffer.count <= size, "a spill read past what was written")
        var done = 0
        while done < buffer.count {
            let n = pread(descriptor, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw failure("read the temporary file back", code: n < 0 ? errno : EIO) }
            done += n
        }
    }

    private func failure(_ operation: String, code: Int32) -> SpillError {
        SpillError(folder: folder, operation: operation, code: code, purpose: purpose)
    }
}
