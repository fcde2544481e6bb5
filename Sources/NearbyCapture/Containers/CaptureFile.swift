/// Opens a capture file of any supported format, chosen by its content.
public enum CaptureFile {
    /// A reader for `path`. Throws when the file cannot be read at all: missing, empty,
    /// not a capture, or with a damaged file header (RECORDS-2). `-`, `/dev/stdin` and other
    /// pipes are read as they arrive (`PipeReader`, RECORDS-11), the format recognised from
    /// their first bytes as for a file.
    public static func open(_ path: String) throws(CaptureFileError) -> any CaptureRecordReader {
        if PipeInput.isStream(path) { return try PipeReader(source: path) }
        let file = try BufferedFile(path: path)
        if file.size == 0 { throw CaptureFileError(path: path, code: .empty, reason: "empty file") }
        var prefix = [UInt8]()
        let n = file.read(into: &prefix, count: 1 << 16)
        prefix.removeLast(prefix.count - n)
        guard let format = CaptureFormat.detect(prefix: prefix) else {
            throw CaptureFileError(
                path: path, code: .unknownFormat, reason: "not a capture: neither pcap, pcapng, btsnoop nor hex text")
        }
        switch format {
        case .pcap: return try PcapFileReader(path: path)
        case .pcapng: return try PcapngFileReader(path: path)
        case .btsnoop: return try BtsnoopFileReader(path: path)
        case .hexText: return try HexTextFileReader(path: path)
        case .live: preconditionFailure("detect(prefix:) never names a live source")
        }
    }
}
