import NearbyDecode

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A fresh, empty folder under `$TMPDIR` (else `/tmp`), named `nearby-conformance-PURPOSE-XXXXXX`,
/// removed with everything in it by `remove()`: where `validate` starts an implementation,
/// copies its inputs, and writes generated vectors.
public struct ScratchFolder: Sendable {
    public let path: String

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public init(purpose: String) throws(Failure) {
        let base = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(base)/nearby-conformance-\(purpose)-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw Failure(description: "cannot make a folder in \(base): \(String(cString: strerror(errno)))")
        }
        path = String(cString: made)
    }

    /// Removes the folder and everything below it (symbolic links are removed, not followed).
    public func remove() { Self.removeTree(path) }

    static func removeTree(_ path: String) {
        var st = stat()
        guard lstat(path, &st) == 0 else { return }
        if (st.st_mode & S_IFMT) == S_IFDIR {
            for name in FileTree.entries(of: path) ?? [] where name != "." && name != ".." {
                removeTree(path + "/" + name)
            }
            rmdir(path)
        } else {
            unlink(path)
        }
    }
}
