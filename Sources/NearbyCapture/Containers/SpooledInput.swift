#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A capture that arrives on a pipe (`-` for standard input, `/dev/stdin`, a FIFO), copied
/// to its end into an unnamed temporary file in `$TMPDIR` (else `/tmp`) so that it can be
/// read like a file: libpcap, and resynchronisation after damage, read at offsets, which a
/// pipe cannot do. The copy is gone when the reader is.
final class SpooledInput {
    private let descriptor: Int32
    /// A path that opens the copy (`/proc/self/fd/N`) while this object lives.
    let path: String

    /// Copies what `source` (a path naming a pipe or FIFO; `-` for standard input) holds.
    init(source: String) throws(CaptureFileError) {
        let shown = source == "-" ? "standard input" : source
        let input = source == "-" ? dup(0) : open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else {
            throw CaptureFileError(path: source, reason: "cannot open: \(String(cString: strerror(errno)))")
        }
        defer { close(input) }
        let folder = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(folder)/nearby-input-XXXXXX".utf8CString)
        let spool = template.withUnsafeMutableBufferPointer { name in
            let fd = mkstemp(name.baseAddress!)
            if fd >= 0 { unlink(name.baseAddress!) }  // nameless from here on
            return fd
        }
        guard spool >= 0 else {
            throw CaptureFileError(
                path: source,
                reason: "cannot make a temporary copy of \(shown) in \(folder): \(String(cString: strerror(errno)))")
        }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 18, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let n = read(input, buffer.baseAddress!, buffer.count)
            if n < 0 && errno == EINTR { continue }
            if n < 0 {
                let reason = String(cString: strerror(errno))
                close(spool)
                throw CaptureFileError(path: source, reason: "cannot read \(shown): \(reason)")
            }
            if n == 0 { break }
            var written = 0
            while written < n {
                let w = write(spool, buffer.baseAddress! + written, n - written)
                if w < 0 && errno == EINTR { continue }
                if w <= 0 {
                    let reason = String(cString: strerror(errno))
                    close(spool)
                    throw CaptureFileError(path: source, reason: "cannot copy \(shown) to \(folder): \(reason)")
                }
                written += w
            }
        }
        descriptor = spool
        path = "/proc/self/fd/\(spool)"
    }

    deinit { close(descriptor) }

    /// True when `path` is `-` or names something that is not a regular file or a folder
    /// (a pipe, a FIFO, a character device such as `/dev/stdin` on a pipe).
    static func isStream(_ path: String) -> Bool {
        if path == "-" { return true }
        var st = stat()
        guard stat(path, &st) == 0 else { return false }
        let kind = st.st_mode & S_IFMT
        return kind != S_IFREG && kind != S_IFDIR
    }
}

/// A reader of a spooled copy: the copy lives as long as the reader.
final class SpooledReader: CaptureRecordReader {
    private let spool: SpooledInput
    private let inner: any CaptureRecordReader

    init(spool: SpooledInput, inner: any CaptureRecordReader) {
        self.spool = spool
        self.inner = inner
    }

    var format: CaptureFormat { inner.format }
    var encapsulationDescription: String { inner.encapsulationDescription }
    func read(_ body: (borrowing RecordView) -> Void) -> CaptureReadStep { inner.read(body) }
}
