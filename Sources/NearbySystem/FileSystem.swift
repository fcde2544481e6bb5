#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Operations on paths: whether a file may be read or written, directories, removal, links.
public enum FileSystem {
    /// What `isAccessible` asks of a path.
    public struct Access: OptionSet, Sendable {
        public let rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }
        /// Only that the path exists (`F_OK`).
        public static let exists = Access([])
        /// Permission to read (`R_OK`).
        public static let read = Access(rawValue: R_OK)
        /// Permission to write (`W_OK`).
        public static let write = Access(rawValue: W_OK)
        /// Permission to execute a file or search a directory (`X_OK`).
        public static let execute = Access(rawValue: X_OK)
    }

    /// Whether the process may use `path` as `access` says (`access(2)`).
    public static func isAccessible(_ path: String, _ access: Access = .exists) -> Bool {
        (try? checkAccess(path, access)) != nil
    }

    /// Throws why the process may not use `path` as `access` says (`access(2)`).
    public static func checkAccess(_ path: String, _ access: Access = .exists) throws(Errno) {
        guard systemAccess(path, access.rawValue == 0 ? F_OK : access.rawValue) == 0 else {
            throw Errno(rawValue: errno)
        }
    }

    /// The names in the directory at `path` (`.` and `..` left out), in the order the
    /// system gives them.
    public static func entries(of path: String) throws(Errno) -> [String] {
        guard let dir = opendir(path) else { throw Errno(rawValue: errno) }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: entry.pointee.d_name)) {
                    String(cString: $0)
                }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Creates the directory `path` (mode 0755 less the umask); an existing one is not an
    /// error when `existingIsFine`.
    public static func makeDirectory(_ path: String, existingIsFine: Bool = true) throws(Errno) {
        guard mkdir(path, 0o755) != 0 else { return }
        let e = Errno(rawValue: errno)
        if e == .fileExists && existingIsFine && FileInfo.of(path)?.kind == .directory { return }
        throw e
    }

    /// Removes the file (not a directory) at `path`.
    public static func remove(_ path: String) throws(Errno) {
        guard unlink(path) == 0 else { throw Errno(rawValue: errno) }
    }

    /// Removes the empty directory at `path`.
    public static func removeDirectory(_ path: String) throws(Errno) {
        guard rmdir(path) == 0 else { throw Errno(rawValue: errno) }
    }

    /// Removes `path` and, when it is a directory, everything below it; a symbolic link is
    /// removed, not followed. What cannot be removed is left.
    public static func removeTree(_ path: String) {
        var st = stat()
        guard lstat(path, &st) == 0 else { return }
        if (st.st_mode & S_IFMT) == S_IFDIR {
            for name in (try? entries(of: path)) ?? [] { removeTree(path + "/" + name) }
            rmdir(path)
        } else {
            unlink(path)
        }
    }

    /// The path of the running executable: `/proc/self/exe` on Linux (not under
    /// `NEARBY_PORTABLE_IO=1`), `_NSGetExecutablePath` on Darwin, else the first argument
    /// the process was started with, made absolute against the working directory.
    public static func executablePath() -> String {
        #if os(Linux)
        if PortableIO.usesGlibcPaths, let path = try? linkTarget("/proc/self/exe") { return path }
        #elseif canImport(Darwin)
        var size: UInt32 = 4096
        var buffer = [CChar](repeating: 0, count: Int(size))
        if _NSGetExecutablePath(&buffer, &size) == 0 {
            return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        #endif
        let first = CommandLine.arguments[0]
        if first.hasPrefix("/") { return first }
        return (currentDirectory().map { $0 + "/" } ?? "") + first
    }

    /// The working directory of the process (`getcwd(3)`), or nil when it cannot be named.
    public static func currentDirectory() -> String? {
        var buffer = [CChar](repeating: 0, count: 4097)
        guard getcwd(&buffer, buffer.count) != nil else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A new directory `folder/prefix-XXXXXX` (`mkdtemp(3)`), mode 0700; its path.
    public static func makeTemporaryDirectory(in folder: String, prefix: String) throws(Errno) -> String {
        var template = Array("\(folder)/\(prefix)-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) != nil }
        guard made else { throw Errno(rawValue: errno) }
        return String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The target of the symbolic link at `path`.
    public static func linkTarget(_ path: String) throws(Errno) -> String {
        var buffer = [CChar](repeating: 0, count: 4097)
        let n = readlink(path, &buffer, buffer.count - 1)
        guard n >= 0 else { throw Errno(rawValue: errno) }
        return String(decoding: buffer.prefix(n).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// `access(2)` (the C function, which `FileSystem.Access` hides inside the enum).
private func systemAccess(_ path: String, _ mode: Int32) -> Int32 { access(path, mode) }
