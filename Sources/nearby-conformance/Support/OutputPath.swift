import NearbySystem

/// Checks made on the paths a command will write, before it does any work: a run that
/// would end unable to write its report is refused at once (exit 64, with the reason).
enum OutputPath {
    /// Why a file cannot be written at `path` (its folder missing or not writable, or the
    /// path a folder), or nil when it can be.
    static func problemWritingFile(_ path: String) -> String? {
        if let info = FileInfo.of(path) {
            if info.kind == .directory { return "\(path) is a folder" }
            do {
                try FileSystem.checkAccess(path, .write)
                return nil
            } catch {
                return "\(path) cannot be written: \(error)"
            }
        }
        let folder = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
        let shown = folder.isEmpty ? "/" : folder
        guard let info = FileInfo.of(shown) else { return "the folder \(shown) does not exist" }
        guard info.kind == .directory else { return "\(shown) is not a folder" }
        do {
            try FileSystem.checkAccess(shown, .write)
            return nil
        } catch {
            return "the folder \(shown) cannot be written: \(error)"
        }
    }

    /// Why a folder cannot be made or written at `path` (a file is there), or nil.
    static func problemWritingFolder(_ path: String) -> String? {
        if let info = FileInfo.of(path), info.kind != .directory { return "\(path) exists and is not a folder" }
        return nil
    }
}
