import NearbySystem

/// A capture that arrives on a pipe (`-` for standard input, `/dev/stdin`, a FIFO), copied
/// to its end into a temporary file in `$TMPDIR` (else `/tmp`) so that it can be read like a
/// file: libpcap, and resynchronisation after damage, read at offsets, which a pipe cannot
/// do. The copy is gone when the reader is (`TemporaryFile`).
final class SpooledInput {
    private let spool: TemporaryFile
    /// A path that opens the copy while this object lives.
    let path: String

    /// Copies what `source` (a path naming a pipe or FIFO; `-` for standard input) holds.
    init(source: String) throws(CaptureFileError) {
        let shown = source == "-" ? "standard input" : source
        let input: FileDescriptor
        do {
            input =
                source == "-"
                ? try FileDescriptor.standardInput.duplicate()
                : try FileDescriptor.open(source, .readOnly, options: .closeOnExec)
        } catch {
            throw CaptureFileError(path: source, code: .unreadable, reason: "cannot open: \(error)")
        }
        defer { try? input.close() }
        let folder = Environment.temporaryFolder
        do {
            spool = try TemporaryFile(in: folder, prefix: "nearby-input", reopenable: true)
        } catch {
            throw CaptureFileError(
                path: source, code: .unreadable,
                reason: "cannot make a temporary copy of \(shown) in \(folder): \(error)")
        }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 18, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let n: Int
            do {
                n = try input.read(into: buffer)
            } catch {
                throw CaptureFileError(path: source, code: .unreadable, reason: "cannot read \(shown): \(error)")
            }
            if n == 0 { break }
            do {
                _ = try spool.descriptor.writeAll(UnsafeRawBufferPointer(rebasing: buffer[..<n]))
            } catch {
                throw CaptureFileError(
                    path: source, code: .unreadable, reason: "cannot copy \(shown) to \(folder): \(error)")
            }
        }
        path = spool.path!
    }

    /// True when `path` is `-` or names something that is not a regular file or a folder
    /// (a pipe, a FIFO, a character device such as `/dev/stdin` on a pipe).
    static func isStream(_ path: String) -> Bool {
        if path == "-" { return true }
        guard let info = FileInfo.of(path) else { return false }
        return info.kind == .other
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
    func read(_ body: (borrowing RecordView) -> Bool) -> CaptureReadStep { inner.read(body) }
}
