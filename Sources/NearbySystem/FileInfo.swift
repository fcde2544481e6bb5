#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What `stat(2)` says of a file: its kind, size and identity.
public struct FileInfo: Sendable, Hashable {
    /// The kinds of file the package tells apart.
    public enum Kind: Sendable, Hashable {
        /// A regular file.
        case regular
        /// A directory.
        case directory
        /// A pipe, socket, character or block device.
        case other
    }

    /// What the file is: a regular file, a directory or another kind.
    public var kind: Kind
    /// Size in bytes (0 for what is not a regular file).
    public var size: Int64
    /// The device the file is on; with `inode`, equal for two paths to one file.
    public var device: UInt64
    /// The file's inode number on `device`; with `device`, equal for two paths to one file.
    public var inode: UInt64
    /// The time of the last change to the file's content: whole seconds since
    /// 1970-01-01T00:00:00Z.
    public var modifiedSeconds: Int64
    /// The nanoseconds within `modifiedSeconds` of the last change to the file's content
    /// (0…999,999,999).
    public var modifiedNanoseconds: Int64

    /// The file at `path`, following symbolic links.
    public init(path: String) throws(Errno) {
        var st = stat()
        guard stat(path, &st) == 0 else { throw Errno(rawValue: errno) }
        self.init(st)
    }

    /// The file open as `descriptor`.
    public init(descriptor: FileDescriptor) throws(Errno) {
        var st = stat()
        guard fstat(descriptor.rawValue, &st) == 0 else { throw Errno(rawValue: errno) }
        self.init(st)
    }

    /// The file at `path`, or nil when it cannot be stat'ed.
    public static func of(_ path: String) -> FileInfo? { try? FileInfo(path: path) }

    private init(_ st: stat) {
        switch st.st_mode & S_IFMT {
        case S_IFREG: kind = .regular
        case S_IFDIR: kind = .directory
        default: kind = .other
        }
        size = Int64(st.st_size)
        device = UInt64(truncatingIfNeeded: st.st_dev)
        inode = UInt64(truncatingIfNeeded: st.st_ino)
        #if canImport(Darwin)
        let modified = st.st_mtimespec
        #else
        let modified = st.st_mtim
        #endif
        modifiedSeconds = Int64(modified.tv_sec)
        modifiedNanoseconds = Int64(modified.tv_nsec)
    }
}
