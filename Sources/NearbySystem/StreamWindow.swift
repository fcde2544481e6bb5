#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The bytes of the file a C stream reads, from where the stream's library will read next:
/// what a reader on top of a C library (libpcap) can look at, and take, before the library
/// reads them.
///
/// Two implementations behind one interface. The mapped window maps the file read-only
/// (`mmap`), `mappingSize` bytes at a time, moved on when fewer than `refillMargin` bytes are
/// left; `consume` hands bytes out, and `release` moves the stream past them before the
/// library reads it again. The plain window holds no byte: everything is read through the
/// library. The window is plain for what is not a regular file (a pipe), when the file
/// cannot be mapped, and when `NEARBY_PORTABLE_IO=1` (`PortableIO.isForced`), so that the
/// plain form is tested with every capture.
///
/// A file that grows while it is read is read through the library past the size it had when
/// the window was made. A file cut shorter while it is mapped ends the process with `SIGBUS`,
/// as any mapped read of it does.
public final class StreamWindow {
    /// The bytes mapped at a time (4 MiB).
    public static let mappingSize = 1 << 22
    /// Fewer bytes left than this (a largest pcap record, 262,144 bytes, with its header and
    /// the next one, rounded up) and the mapping moves on to start at the window.
    public static let refillMargin = 1 << 19

    @usableFromInline let stream: StdioStream.Pointer
    // A window is used by one thread at a time (it is not Sendable): no access is checked.
    /// The file's size when the window was made (bytes); nil for the plain window, which a
    /// mapped window becomes when the file cannot be mapped.
    @usableFromInline @exclusivity(unchecked) var size: Int64?
    /// The mapping, and the file offsets of its first byte and of the byte after its last.
    @usableFromInline @exclusivity(unchecked) var mapping: UnsafeRawPointer?
    @usableFromInline @exclusivity(unchecked) var mappingStart: Int64 = 0
    @usableFromInline @exclusivity(unchecked) var mappingEnd: Int64 = 0
    /// The file offset of the window's first byte; nil until the window is next looked at
    /// after `release` (it then starts where the stream is).
    @usableFromInline @exclusivity(unchecked) var start: Int64?
    /// Whether bytes were handed out since the stream was last where the window starts.
    @usableFromInline @exclusivity(unchecked) var aheadOfStream = false

    /// The window of `stream`: mapped when its file is a regular file, else plain.
    public init(_ stream: StdioStream.Pointer) {
        self.stream = stream
        let info = try? FileInfo(descriptor: FileDescriptor(rawValue: fileno(stream)))
        size = !PortableIO.isForced && info?.kind == .regular ? info?.size : nil
    }

    deinit { unmap() }

    /// True when the window holds no byte from now on.
    public var isPlain: Bool { size == nil }

    /// The bytes from the window's start to the end of the mapping (empty when plain, and at
    /// the end of what was mapped). Valid until `release` or the next `bytes`.
    @inlinable
    public var bytes: UnsafeRawBufferPointer {
        guard let size else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        let at = start ?? StdioStream.offset(stream)
        start = at
        if at < mappingStart || at > mappingEnd || (mappingEnd - at < Int64(Self.refillMargin) && mappingEnd < size) {
            remap(at: at, size: size)
        }
        guard let mapping, at < mappingEnd else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return UnsafeRawBufferPointer(start: mapping + Int(at - mappingStart), count: Int(mappingEnd - at))
    }

    /// Hands out the first `count` bytes of `bytes` (at most its count): the library will not
    /// read them.
    @inlinable
    public func consume(_ count: Int) {
        guard let at = start else { return }
        start = at + Int64(count)
        aheadOfStream = true
    }

    /// Gives the stream back to its library before it reads or moves it: moves the stream to
    /// `offset` when one is given, else past the bytes handed out (one seek at most); the
    /// window then starts where the stream is when next looked at. False when the stream could
    /// not be moved.
    @discardableResult
    public func release(movingTo offset: Int64? = nil) -> Bool {
        defer { (start, aheadOfStream) = (nil, false) }
        if let offset { return StdioStream.seek(stream, to: offset) }
        guard aheadOfStream, let start else { return true }
        return StdioStream.seek(stream, to: start)
    }

    /// Maps `mappingSize` bytes of the file (or to its end) from the page that holds `offset`;
    /// nothing mapped when `offset` is at or past the end. When the file cannot be mapped the
    /// window turns plain.
    @usableFromInline
    func remap(at offset: Int64, size: Int64) {
        unmap()
        let page = Int64(sysconf(Int32(_SC_PAGESIZE)))
        let from = offset / page * page
        guard from < size else { return }
        let count = Int(min(Int64(Self.mappingSize), size - from))
        guard let base = mmap(nil, count, PROT_READ, MAP_PRIVATE, fileno(stream), off_t(from)), base != MAP_FAILED
        else {
            self.size = nil
            return
        }
        (mapping, mappingStart, mappingEnd) = (UnsafeRawPointer(base), from, from + Int64(count))
    }

    private func unmap() {
        if let mapping { munmap(UnsafeMutableRawPointer(mutating: mapping), Int(mappingEnd - mappingStart)) }
        (mapping, mappingStart, mappingEnd) = (nil, 0, 0)
    }
}
