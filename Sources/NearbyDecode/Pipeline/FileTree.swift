import NearbySystem

/// Directory walking for commands that take "files or directories": the regular files below
/// a directory, hidden entries skipped, sorted by path. Symbolic links are followed, and
/// each directory is read once: a link back to a directory already read (a loop such as
/// `self -> .`, or a second way to the same folder) is reported and not entered.
public enum FileTree {
    public static func isDirectory(_ path: String) -> Bool {
        FileInfo.of(path)?.kind == .directory
    }

    public static func isRegularFile(_ path: String) -> Bool {
        FileInfo.of(path)?.kind == .regular
    }

    /// What a walk found: the files, sorted by path, and the directories not entered because
    /// they had been read already (`path`, and `firstPath` by which they were read).
    public struct Walk: Sendable {
        public var files: [String] = []
        public var repeats: [(path: String, firstPath: String)] = []
    }

    /// Every file below `directory`, recursively, sorted by path; folders named in
    /// `skipping` are not entered.
    public static func files(below directory: String, skipping: Set<String> = []) -> [String] {
        walk(directory, skipping: skipping).files
    }

    /// The files below `directory` and the directories passed over as repeats; entries are
    /// visited in name order, so which path a directory is read by does not depend on the
    /// file system's order.
    public static func walk(_ directory: String, skipping: Set<String> = []) -> Walk {
        var walk = Walk()
        var seen: [DirectoryIdentity: String] = [:]
        if let id = DirectoryIdentity(directory) { seen[id] = directory }
        visit(directory, skipping: skipping, seen: &seen, into: &walk)
        walk.files.sort()
        return walk
    }

    /// A directory's device and inode: the same folder, whatever path reaches it.
    private struct DirectoryIdentity: Hashable {
        var device: UInt64
        var inode: UInt64
        init?(_ path: String) {
            guard let info = FileInfo.of(path) else { return nil }
            device = info.device
            inode = info.inode
        }
    }

    /// The names in `directory` (`.` and `..` left out, in the file system's order), or nil
    /// when it cannot be read.
    public static func entries(of directory: String) -> [String]? {
        try? FileSystem.entries(of: directory)
    }

    private static func visit(
        _ directory: String, skipping: Set<String>, seen: inout [DirectoryIdentity: String], into walk: inout Walk
    ) {
        guard let entries = entries(of: directory) else { return }
        for name in entries.filter({ !$0.hasPrefix(".") }).sorted() {
            let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
            guard isDirectory(path) else {
                walk.files.append(path)
                continue
            }
            if skipping.contains(name) { continue }
            guard let id = DirectoryIdentity(path) else { continue }
            if let first = seen[id] {
                walk.repeats.append((path, first))
                continue
            }
            seen[id] = path
            visit(path, skipping: skipping, seen: &seen, into: &walk)
        }
    }
}
