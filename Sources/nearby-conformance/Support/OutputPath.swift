#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Checks made on the paths a command will write, before it does any work: a run that
/// would end unable to write its report is refused at once (exit 64, with the reason).
enum OutputPath {
    /// Why a file cannot be written at `path` (its folder missing or not writable, or the
    /// path a folder), or nil when it can be.
    static func problemWritingFile(_ path: String) -> String? {
        var st = stat()
        if stat(path, &st) == 0 {
            if st.st_mode & S_IFMT == S_IFDIR { return "\(path) is a folder" }
            return access(path, W_OK) == 0 ? nil : "\(path) cannot be written: \(String(cString: strerror(errno)))"
        }
        let folder = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
        let shown = folder.isEmpty ? "/" : folder
        guard stat(shown, &st) == 0 else { return "the folder \(shown) does not exist" }
        guard st.st_mode & S_IFMT == S_IFDIR else { return "\(shown) is not a folder" }
        return access(shown, W_OK) == 0
            ? nil : "the folder \(shown) cannot be written: \(String(cString: strerror(errno)))"
    }

    /// Why a folder cannot be made or written at `path` (a file is there), or nil.
    static func problemWritingFolder(_ path: String) -> String? {
        var st = stat()
        if stat(path, &st) == 0, st.st_mode & S_IFMT != S_IFDIR { return "\(path) exists and is not a folder" }
        return nil
    }
}
