#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A file for the process's own scratch data, made with `mkstemp(3)` in a folder (TMPDIR by
/// default), open for reading and writing, and gone when this value is.
///
/// A nameless file (the name removed at once) leaves nothing behind when the process dies.
/// One that must be opened again by path (`reopenable`) is nameless too on glibc, reached
/// through `/proc/self/fd`; elsewhere, and under `NEARBY_PORTABLE_IO=1`, it keeps its name
/// until this value is released.
public final class TemporaryFile {
    /// The open file, for reading and writing; closed when this value is released.
    public let descriptor: FileDescriptor
    /// A path that opens the file while this value lives; nil unless `reopenable`.
    public let path: String?
    /// The name removed when this value is released.
    private let name: String?

    /// Makes `folder/prefix-XXXXXX`.
    public init(
        in folder: String = Environment.temporaryFolder, prefix: String, reopenable: Bool = false
    )
        throws(Errno)
    {
        var template = Array("\(folder)/\(prefix)-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw Errno(rawValue: errno) }
        let made = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        descriptor = FileDescriptor(rawValue: fd)
        if reopenable && !PortableIO.usesGlibcPaths {
            path = made
            name = made
        } else {
            unlink(made)
            path = reopenable ? "/proc/self/fd/\(fd)" : nil
            name = nil
        }
    }

    deinit {
        try? descriptor.close()
        if let name { unlink(name) }
    }
}
