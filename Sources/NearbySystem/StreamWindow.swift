#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The bytes a C stream has read ahead and not yet handed out, where they lie: what a reader
/// on top of a C library (libpcap) can look at, and take, before the library reads them.
///
/// Two implementations behind one interface. The plain window holds no byte: everything is
/// read through the library, on every C library. On glibc the window is the stream's own
/// buffer, from `_IO_read_ptr` to `_IO_read_end`; `consume` hands bytes out as though the
/// stream had read them. The glibc form is taken when `PortableIO.usesGlibcPaths`
/// (`NEARBY_PORTABLE_IO=1` forces the plain one).
public struct StreamWindow {
    @usableFromInline let stream: StdioStream.Pointer?

    /// The window of `stream`: its buffer on glibc, else plain.
    public init(_ stream: StdioStream.Pointer) {
        self.stream = PortableIO.usesGlibcPaths ? stream : nil
    }

    /// True when the window never holds a byte.
    public var isPlain: Bool { stream == nil }

    /// The bytes buffered and not yet handed out (empty when plain). Valid until the stream
    /// is next read or moved.
    @inlinable
    public var bytes: UnsafeRawBufferPointer {
        #if canImport(Glibc)
        guard let stream, let start = stream.pointee._IO_read_ptr, let end = stream.pointee._IO_read_end else {
            return UnsafeRawBufferPointer(start: nil, count: 0)
        }
        return UnsafeRawBufferPointer(start: start, count: end - start)
        #else
        return UnsafeRawBufferPointer(start: nil, count: 0)
        #endif
    }

    /// Hands out the first `count` bytes of `bytes` (at most its count) as though the stream
    /// had read them.
    @inlinable
    public func consume(_ count: Int) {
        #if canImport(Glibc)
        stream?.pointee._IO_read_ptr += count
        #endif
    }
}
