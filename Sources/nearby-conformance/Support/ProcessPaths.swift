import NearbySystem

/// Paths as this process sees them.
enum ProcessPaths {
    /// `path` made absolute against the working directory.
    static func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        guard let directory = FileSystem.currentDirectory() else { return path }
        return directory + "/" + path
    }

    /// This executable, for the reference adapter's command.
    static func executable() -> String {
        FileSystem.executablePath()
    }
}
