import Foundation

/// A fresh directory under the system's temporary directory, removed by `remove()`.
public struct TemporaryDirectory {
    public let path: String

    public init() {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("nearby-conformance-tests-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        path = base.path
    }

    public func file(_ name: String) -> String { path + "/" + name }

    public func write(_ bytes: [UInt8], to name: String) -> String {
        let p = file(name)
        _ = FileManager.default.createFile(atPath: p, contents: Data(bytes))
        return p
    }

    public func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// Locations in the repository and beside it.
public enum RepositoryPaths {
    /// The package root (the folder of Package.swift).
    public static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// `../shared/captures` beside the repository, when it is there.
    public static var sharedCaptures: String? {
        let p = URL(fileURLWithPath: root).deletingLastPathComponent().appendingPathComponent("shared/captures").path
        return FileManager.default.fileExists(atPath: p) ? p : nil
    }
}
