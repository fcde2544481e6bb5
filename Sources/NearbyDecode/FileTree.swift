#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Directory walking for commands that take "files or directories": the regular files below
/// a directory, hidden entries skipped, sorted by path.
public enum FileTree {
    public static func isDirectory(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
    }

    /// Every file below `directory`, recursively, sorted by path; folders named in
    /// `skipping` are not entered.
    public static func files(below directory: String, skipping: Set<String> = []) -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var result: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name.hasPrefix(".") { continue }
            let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
            if isDirectory(path) {
                if !skipping.contains(name) { result += files(below: path, skipping: skipping) }
            } else {
                result.append(path)
            }
        }
        return result.sorted()
    }
}
