import NearbySystem

/// An anonymous temporary file that values too many to hold in memory are written to and
/// read back from, by byte offset. It is created in `folder` (by default `$TMPDIR`, else
/// `/tmp`) and unlinked at once, so it has no name and disappears with the process, however
/// that ends.
public final class SpillFile {
    private let file: TemporaryFile
    /// Bytes written so far: the file's size, and the offset the next `append` writes at.
    public private(set) var size = 0
    /// The folder the file was made in, for error messages.
    public let folder: String
    /// What the file holds, for error messages (`SpillError.purpose`).
    public let purpose: String

    /// Makes the file; `purpose` ends any error message (`the sightings that do not fit in
    /// memory`).
    public init(folder: String? = nil, purpose: String) throws(SpillError) {
        let folder = folder ?? Environment.temporaryFolder
        self.folder = folder
        self.purpose = purpose
        do {
            file = try TemporaryFile(in: folder, prefix: "nearby-spill")
        } catch {
            throw SpillError(
                folder: folder, operation: "create a temporary file", code: error.rawValue, purpose: purpose)
        }
    }

    /// Writes `bytes` at the end of the file.
    package func append(_ bytes: UnsafeRawBufferPointer) throws(SpillError) {
        do {
            _ = try file.descriptor.writeAll(bytes)
        } catch let e as Errno {
            throw failure("write the temporary file", code: e.rawValue)
        } catch {
            throw failure("write the temporary file", code: Errno.ioError.rawValue)
        }
        size += bytes.count
    }

    /// Fills `buffer` with the bytes at `offset`, which must lie within what was written.
    package func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws(SpillError) {
        precondition(offset >= 0 && offset + buffer.count <= size, "a spill read past what was written")
        var done = 0
        while done < buffer.count {
            let n: Int
            do {
                n = try file.descriptor.read(
                    fromAbsoluteOffset: Int64(offset + done),
                    into: UnsafeMutableRawBufferPointer(rebasing: buffer[done...]))
            } catch let e as Errno {
                throw failure("read the temporary file back", code: e.rawValue)
            } catch {
                throw failure("read the temporary file back", code: Errno.ioError.rawValue)
            }
            guard n > 0 else { throw failure("read the temporary file back", code: Errno.ioError.rawValue) }
            done += n
        }
    }

    private func failure(_ operation: String, code: Int32) -> SpillError {
        SpillError(folder: folder, operation: operation, code: code, purpose: purpose)
    }
}
