#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a btsnoop file of any length in constant memory: records are built by a
/// `BtsnoopWriter` and written out whenever 1 MiB has gathered.
public final class BtsnoopFileWriter {
    private var builder: BtsnoopWriter
    private var file: UnsafeMutablePointer<FILE>?
    private let path: String
    static let flushBytes = 1 << 20

    public init(path: String, datalink: BtsnoopDatalink) throws(CaptureFileError) {
        guard let f = fopen(path, "wb") else {
            throw CaptureFileError(path: path, reason: "cannot create: \(String(cString: strerror(errno)))")
        }
        self.path = path
        file = f
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
        let written = chunk.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        if written != chunk.count {
            throw CaptureFileError(path: path, reason: "write failed: \(String(cString: strerror(errno)))")
        }
    }

    /// Writes what is left and closes the file.
    public func close() throws(CaptureFileError) {
        guard let f = file else { return }
        try flush()
        file = nil
        if fclose(f) != 0 {
            throw CaptureFileError(path: path, reason: "close failed: \(String(cString: strerror(errno)))")
        }
    }

    deinit {
        if let file { fclose(file) }
    }
}
