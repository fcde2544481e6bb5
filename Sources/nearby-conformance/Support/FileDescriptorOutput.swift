import NearbySystem

/// Writes to a file descriptor without Foundation's or stdio's buffering: the callers hand
/// over whole lines in large chunks.
enum FileDescriptorOutput {
    static func write(_ string: String, fd: Int32) {
        var s = string
        s.withUTF8 { _ = write($0, fd: fd) }
    }

    /// Writes all of `bytes` (retrying after signals and short writes); false when the
    /// descriptor refuses them (`errno` says why).
    @discardableResult
    static func write(_ bytes: [UInt8], fd: Int32) -> Bool {
        bytes.withUnsafeBufferPointer { write($0, fd: fd) }
    }

    @discardableResult
    static func write(_ buf: UnsafeBufferPointer<UInt8>, fd: Int32) -> Bool {
        StandardStreams.write(UnsafeRawBufferPointer(buf), to: fd)
    }
}
