import NearbyCapture
import NearbySystem

/// Keeps every record of a live session in a capture file (`--write FILE`), each record
/// written through to the file as it comes, so that an interrupted session keeps all it
/// received. The format follows the file name: `.pcapng`; `.pcap`; `.btsnoop`, `.log` or
/// `.cfa` for btsnoop. H4 records (LINKTYPE 201) become btsnoop datalink 1002 (HCI UART)
/// with the direction in the flags; monitor records (LINKTYPE 254) become datalink 2001.
/// Decoding the file gives the records, times and bytes the live session decoded.
public final class LiveCaptureWriter {
    public enum Format: String, Sendable {
        case pcapng, pcap, btsnoop
    }

    public let path: String
    public let format: Format
    private let linkType: LinkType
    private var file: FileDescriptor?
    private var pcap: PcapWriter?
    private var pcapng: PcapngWriter?
    private var btsnoop: BtsnoopWriter?

    /// The format `path` names, or nil when its extension is none of the above.
    public static func format(of path: String) -> Format? {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: ".") else { return nil }
        switch name[name.index(after: dot)...].lowercased() {
        case "pcapng": return .pcapng
        case "pcap": return .pcap
        case "btsnoop", "log", "cfa": return .btsnoop
        default: return nil
        }
    }

    /// Creates `path` for records of `linkType` (201 or 254), writing the file header; the
    /// format is `format`, or the one the name says.
    public init(path: String, format given: Format? = nil, linkType: LinkType, source: String) throws(LiveError) {
        guard let format = given ?? Self.format(of: path) else {
            throw LiveError(
                source: source, .writeFailed,
                "\(path): name the capture to write .pcapng, .pcap or .btsnoop (also .log, .cfa)")
        }
        self.path = path
        self.format = format
        self.linkType = linkType
        do throws(CaptureFileError) {
            switch format {
            case .pcap:
                pcap = try PcapWriter(path: path, linkType: linkType)
                return
            case .pcapng: pcapng = PcapngWriter(linkType: linkType)
            case .btsnoop:
                btsnoop = BtsnoopWriter(datalink: linkType == .bluetoothLinuxMonitor ? .linuxMonitor : .hciUART)
            }
        } catch {
            throw LiveError(source: source, .writeFailed, "\(error)")
        }
        do {
            file = try FileDescriptor.open(
                path, .writeOnly, options: [.create, .truncate, .closeOnExec],
                permissions: [.ownerReadWrite, .groupRead, .otherRead])
        } catch {
            throw LiveError(source: source, .writeFailed, "\(path): cannot create: \(error)")
        }
        try flush()
    }

    /// Appends `record` and writes it through.
    public func write(_ record: CaptureRecord) throws(LiveError) {
        let time = record.metadata.timestampMicros ?? 0
        let bytes = Array(record.bytes)
        if let pcap {
            pcap.write(bytes, timestampMicros: time)
            guard pcap.flush() else { throw failed("write failed") }
            return
        }
        if pcapng != nil {
            pcapng!.append(bytes, timestampMicros: time)
        } else if btsnoop != nil, bytes.count >= 4 {
            if linkType == .bluetoothLinuxMonitor {
                let flags = UInt32(bytes[0]) << 24 | UInt32(bytes[1]) << 16 | UInt32(bytes[2]) << 8 | UInt32(bytes[3])
                btsnoop!.append(Array(bytes[4...]), flags: flags, timestampMicros: time)
            } else {
                let received = bytes[3] & 1 == 1
                let control = bytes.count > 4 && (bytes[4] == 0x01 || bytes[4] == 0x04)
                btsnoop!.append(
                    Array(bytes[4...]), flags: (control ? 0x02 : 0x00) | (received ? 0x01 : 0x00),
                    timestampMicros: time)
            }
        }
        try flush()
    }

    private func flush() throws(LiveError) {
        guard let file else { return }
        let chunk = pcapng?.takeBytes() ?? btsnoop?.takeBytes() ?? []
        do {
            _ = try chunk.withUnsafeBytes { try file.writeAll($0) }
        } catch {
            throw failed("write failed: \(error)")
        }
    }

    private func failed(_ reason: String) -> LiveError {
        LiveError(source: path, .writeFailed, "\(path): \(reason)")
    }

    /// Writes what is left and closes the file. Idempotent.
    public func close() throws(LiveError) {
        pcap?.close()
        pcap = nil
        guard let f = file else { return }
        try flush()
        file = nil
        do {
            try f.close()
        } catch {
            throw failed("close failed: \(error)")
        }
    }

    deinit {
        pcap?.close()
        try? file?.close()
    }
}
