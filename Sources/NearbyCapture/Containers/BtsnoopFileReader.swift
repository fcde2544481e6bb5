import NearbyBytes

/// Reads btsnoop version 1 files natively (BlueZ `src/shared/btsnoop.c`, Wireshark
/// `wiretap/btsnoop.c`; formats.md §5.5).
///
/// File header (16 bytes): `btsnoop\0`, version (uint32 BE, must be 1), datalink (uint32 BE).
/// Record header (24 bytes, all big-endian): original length, included length, flags,
/// cumulative drops, timestamp (int64, microseconds since 0000-01-01 in btsnoop's epoch:
/// Unix time = timestamp − 0x00DCDDB30F2F8000).
public final class BtsnoopFileReader: CaptureRecordReader {
    /// btsnoop timestamp of 1970-01-01T00:00:00Z, in microseconds.
    public static let unixEpochOffsetMicros: Int64 = 0x00DC_DDB3_0F2F_8000
    /// Records longer than this are taken for a corrupt length field (the largest HCI
    /// packet is under 64 KiB; Wireshark's limit is 256 KiB).
    public static let maximumRecordLength = 1 << 18

    public let format = CaptureFormat.btsnoop
    public let datalink: BtsnoopDatalink
    public var encapsulationDescription: String { "btsnoop datalink \(datalink)" }

    private let file: BufferedFile
    // Only `read` touches the reader's state, and a reader is used by one thread at a time
    // (it is not Sendable): no run-time exclusivity check per record.
    @exclusivity(unchecked) private var index = 0
    private var done = false

    public init(path: String) throws(CaptureFileError) {
        file = try BufferedFile(path: path)
        var h = [UInt8]()
        let n = file.read(into: &h, count: 16)
        var c = ByteCursor(h[0..<n], layer: .btsnoop)
        do {
            let magic = try c.readShortBytes(8, "magic")
            guard magic.elementsEqual("btsnoop\0".utf8) else {
                throw CaptureFileError(path: path, reason: "not a btsnoop file")
            }
            let version = try c.readUInt32BE("version")
            guard version == 1 else {
                throw CaptureFileError(path: path, reason: "btsnoop version \(version) is not supported (only 1)")
            }
            datalink = BtsnoopDatalink(rawValue: try c.readUInt32BE("datalink"))
        } catch let e as DecodeError {
            throw CaptureFileError(path: path, reason: "btsnoop file header: \(e.reason)")
        } catch let e as CaptureFileError {
            throw e
        } catch {
            throw CaptureFileError(path: path, reason: "\(error)")
        }
    }

    public func read(_ body: (borrowing RecordView) -> Void) -> CaptureReadStep {
        guard !done, file.remaining > 0 else { return .end }
        index += 1
        let headerOffset = file.offset
        let header = file.lend(24)
        var c = ByteCursor(Span(_unsafeBytes: header), layer: .btsnoop)
        do throws(DecodeError) {
            let originalLength = try c.readUInt32BE("original length")
            let includedLength = try c.readUInt32BE("included length")
            let flags = try c.readUInt32BE("flags")
            _ = try c.readUInt32BE("cumulative drops")
            let timestamp = try c.readInt64BE("timestamp")
            let length = Int(includedLength)
            if length > Self.maximumRecordLength {
                throw DecodeError(.btsnoop, .invalidValue, at: 4,
                                  "included length \(length) exceeds the \(Self.maximumRecordLength)-byte limit")
            }
            if Int64(length) > file.remaining {
                throw DecodeError(.btsnoop, .lengthOverrun, at: 4,
                                  "included length \(length) overruns the file (\(file.remaining) bytes left)")
            }
            let dataOffset = file.offset
            // The header's bytes are not used past here: lending the data may reuse them.
            let data = file.lend(length)
            if data.count < length {
                // The file was cut short since it was opened, or could not be read.
                done = true
                return .malformed(index: index, fileOffset: dataOffset + Int64(data.count), line: nil,
                                  DecodeError(.btsnoop, .truncated, at: 24 + data.count,
                                              "record data: the file ended or could not be read after \(data.count) of \(length) bytes"))
            }
            body(RecordView(
                index: index, timestampMicros: timestamp &- Self.unixEpochOffsetMicros,
                encapsulation: .btsnoop(datalink, flags: flags), bytes: Span(_unsafeBytes: data),
                originalLength: Int(originalLength), fileOffset: dataOffset))
            return .record
        } catch {
            done = true
            return .malformed(index: index, fileOffset: headerOffset + Int64(error.offset), line: nil,
                              DecodeError(.btsnoop, error.code, at: error.offset, "record header: " + error.reason))
        }
    }
}
