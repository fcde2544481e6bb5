import NearbySystem

/// A fresh, empty folder under `$TMPDIR` (else `/tmp`), named `nearby-conformance-PURPOSE-XXXXXX`,
/// removed with everything in it by `remove()`: where `validate` starts an implementation,
/// copies its inputs, and writes generated vectors.
public struct ScratchFolder: Sendable {
    public let path: String

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public init(purpose: String) throws(Failure) {
        let base = Environment.temporaryFolder
        do {
            path = try FileSystem.makeTemporaryDirectory(in: base, prefix: "nearby-conformance-\(purpose)")
        } catch {
            throw Failure(description: "cannot make a folder in \(base): \(error)")
        }
    }

    /// Removes the folder and everything below it (symbolic links are removed, not followed).
    public func remove() { FileSystem.removeTree(path) }
}
