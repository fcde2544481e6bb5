import NearbySystem

/// Random access to a file's bytes through a window read with `pread(2)`: what the scan for
/// the next plausible record reads, beside (and independent of) the reader's own stream.
/// Opened only when a capture turns out to be damaged.
final class FileWindow {
    private let descriptor: FileDescriptor
    /// The file's size when the window was opened (bytes).
    let size: Int64
    private let buffer: UnsafeMutableRawBufferPointer
    /// File offset of `buffer[0]`, and how many bytes of the buffer are filled.
    private var start: Int64 = 0
    private var filled = 0
    /// Bytes read per window (1 MiB): a scan over a damaged stretch reads it once.
    static let windowSize = 1 << 20

    /// Nil when the file cannot be opened or is not a regular file (a pipe cannot be read
    /// at an offset).
    init?(path: String) {
        guard let fd = try? FileDescriptor.open(path, .readOnly, options: .closeOnExec) else { return nil }
        guard let info = try? FileInfo(descriptor: fd), info.kind == .regular else {
            try? fd.close()
            return nil
        }
        descriptor = fd
        size = info.size
        // No larger than the file: small files (fuzzing inputs) are read whole.
        buffer = .allocate(byteCount: Int(min(Int64(Self.windowSize), max(size, 64))), alignment: 16)
    }

    deinit {
        buffer.deallocate()
        try? descriptor.close()
    }

    /// The `count` bytes at `offset` (`count` ≤ `windowSize`), or nil when the file ends
    /// before `offset + count` or cannot be read. Valid until the next call.
    @inline(__always)
    func bytes(at offset: Int64, count: Int) -> UnsafeRawBufferPointer? {
        if offset >= start && offset + Int64(count) <= start + Int64(filled) {
            return UnsafeRawBufferPointer(start: buffer.baseAddress! + Int(offset - start), count: count)
        }
        return refill(at: offset, count: count)
    }

    /// `bytes(at:count:)` when the window does not hold them: reads the window from `offset`.
    private func refill(at offset: Int64, count: Int) -> UnsafeRawBufferPointer? {
        precondition(count <= Self.windowSize && offset >= 0)
        guard offset + Int64(count) <= size else { return nil }
        start = offset
        filled = 0
        while filled < buffer.count {
            let n =
                (try? descriptor.read(
                    fromAbsoluteOffset: start + Int64(filled),
                    into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))) ?? -1
            if n <= 0 { break }
            filled += n
        }
        guard count <= filled else { return nil }
        return UnsafeRawBufferPointer(start: buffer.baseAddress! + Int(offset - start), count: count)
    }

    /// The big-endian or little-endian unsigned integer of `T`'s width at `offset`.
    @inline(__always)
    func integer<T: FixedWidthInteger & UnsignedInteger>(_: T.Type, at offset: Int64, bigEndian: Bool) -> T? {
        guard let raw = bytes(at: offset, count: MemoryLayout<T>.size) else { return nil }
        let value = raw.loadUnaligned(as: T.self)
        return bigEndian ? T(bigEndian: value) : T(littleEndian: value)
    }
}
