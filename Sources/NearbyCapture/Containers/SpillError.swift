import NearbySystem

/// A temporary file (`SpillFile`) that could not be made, written or read back.
public struct SpillError: Error, CustomStringConvertible {
    /// The folder the file was to be made in.
    public var folder: String
    /// What failed: `create a temporary file`, `write the temporary file`, ….
    public var operation: String
    /// `errno`.
    public var code: Int32
    /// What the file was for, as the message ends it: `the sightings that do not fit in memory`.
    public var purpose: String

    public var description: String {
        "cannot \(operation) in \(folder) for \(purpose) (TMPDIR names another folder): "
            + "\(Errno(rawValue: code).description)"
    }
}
