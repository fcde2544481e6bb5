#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A C library stream (`FILE *`), for the C libraries that read one (libpcap's
/// `pcap_fopen_offline`): opened with a buffer the caller owns, moved, read at an offset
/// beside the library; `StreamWindow` lends the file's bytes from where the library reads next.
public enum StdioStream {
    /// A stream.
    public typealias Pointer = UnsafeMutablePointer<FILE>

    /// Opens `path` for reading, fully buffered through `buffer` (`size` bytes, which must
    /// outlive the stream).
    public static func open(_ path: String, buffer: UnsafeMutablePointer<CChar>, size: Int) throws(Errno) -> Pointer {
        guard let stream = fopen(path, "rb") else { throw Errno(rawValue: errno) }
        // glibc ignores the size unless it is given the buffer too.
        setvbuf(stream, buffer, _IOFBF, size)
        return stream
    }

    /// Closes `stream` (one that no library has taken over).
    public static func close(_ stream: Pointer) { fclose(stream) }

    /// The file offset of the next byte the stream reads (`ftello`).
    public static func offset(_ stream: Pointer) -> Int64 { Int64(ftello(stream)) }

    /// Moves the stream to `offset`, its error and end-of-file flags cleared; false when it
    /// cannot be moved (a pipe).
    public static func seek(_ stream: Pointer, to offset: Int64) -> Bool {
        clearerr(stream)
        return fseeko(stream, off_t(offset), SEEK_SET) == 0
    }

    /// Reads up to `buffer.count` bytes at `offset` of the stream's file without moving the
    /// stream (`pread` on its descriptor); how many, or −1.
    public static func read(_ stream: Pointer, at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        let descriptor = FileDescriptor(rawValue: fileno(stream))
        return (try? descriptor.read(fromAbsoluteOffset: offset, into: buffer)) ?? -1
    }
}
