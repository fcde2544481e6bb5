import NearbySystem

/// Writes a btsnoop file of any length in constant memory: records are built by a
/// `BtsnoopWriter` and written out whenever 1 MiB has gathered.
public final class BtsnoopFileWriter {
    private var builder: BtsnoopWriter
    private var file: FileDescriptor?
    private let path: String
    static let flushBytes = 1 << 20

    public init(path: String, datalink: BtsnoopDatalink) throws(CaptureFileError) {
        do {
            file = try FileDescriptor.open(
                path, .writeOnly, options: [.create, .truncate, .closeOnExec],
                permissions: [.ownerReadWrite, .groupRead, .otherRead])
        } catch {
            throw CaptureFileError(path: path, code: .unwritable, reason: "cannot create: \(error)")
        }
        self.path = path
        builder = BtsnoopWriter(datalink: datalink)
    }

    /// Appends one record (flags as for `BtsnoopWriter.append`).
    public func append(_ packet: [UInt8], flags: UInt32, timestampMicros: Int64) throws(CaptureFileError) {
        builder.append(packet, flags: flags, timestampMicros: timestampMicros)
        if builder.bytes.count >= Self.flushBytes { try flush() }
    }

    func flush() throws(CaptureFileError) {
        guard let file else { return }
        let chunk = builder.takeBytes()
        do {
            _ = try chunk.withUnsafeBytes { try file.writeAll($0) }
        } catch {
            throw CaptureFileError(path: path, code: .unwritable, reason: "write failed: \(error)")
        }
    }

    /// Writes what is left and closes the file.
    public func close() throws(CaptureFileError) {
        guard let f = file else { return }
        try flush()
        file = nil
        do {
            try f.close()
        } catch {
            throw CaptureFileError(path: path, code: .unwritable, reason: "close failed: \(error)")
        }
    }

    deinit {
        try? file?.close()
    }
}
