/// Writes a whole file at once, replacing it: for outputs built in memory (a btsnoop file,
/// a ground truth, a report).
public enum OutputFile {
    /// Creates or truncates `path` and writes `bytes` to it.
    public static func write(_ bytes: [UInt8], to path: String) throws(OutputFileError) {
        do {
            let file = try FileDescriptor.open(
                path, .writeOnly, options: [.create, .truncate, .closeOnExec],
                permissions: [.ownerReadWrite, .groupRead, .otherRead])
            try file.closeAfter { _ = try bytes.withUnsafeBytes { try file.writeAll($0) } }
        } catch let e as Errno {
            throw OutputFileError(path: path, errno: e.rawValue)
        } catch {
            throw OutputFileError(path: path, errno: Errno.ioError.rawValue)
        }
    }
}
