import NearbyCapture
import NearbySystem

/// The container invariant of resynchronising readers (docs/damaged-captures.md): in a
/// btsnoop or classic pcap file, every byte is in the file header, in a record (its header
/// and data), or in a skipped range, each exactly once and in file order. (A pcap record
/// libpcap cut to the snapshot length may leave its uncaptured tail between it and what
/// follows. pcapng and hex text give no record offsets, and are not checked.)
public enum ContainerCoverageCheck {
    /// The invariant's violations for the file at `path`, in words (empty when it holds,
    /// or when the file cannot be opened or is not btsnoop or classic pcap).
    public static func violations(path: String) -> [String] {
        guard let reader = try? CaptureFile.open(path) else { return [] }
        let (fileHeader, recordHeader): (Int64, Int64)
        switch reader.format {
        case .btsnoop: (fileHeader, recordHeader) = (16, 24)
        case .pcap: (fileHeader, recordHeader) = (24, 16)
        default: return []
        }
        var covered = fileHeader
        var mayLeaveTail = false
        // libpcap cuts a record longer than the snapshot length to it, and skips the rest.
        let snapshotLength =
            (reader as? PcapFileReader)?.snapshotLength ?? (reader as? PcapngFileReader)?.snapshotLength ?? .max
        var problems: [String] = []
        func take(_ range: Range<Int64>, _ what: String) {
            if range.lowerBound != covered && !(mayLeaveTail && range.lowerBound > covered) {
                problems.append("\(what) covers \(range) but the bytes before end at \(covered)")
            }
            covered = range.upperBound
        }
        while problems.count < 4 {
            var extent: (Range<Int64>, Bool)?
            let step = reader.read { record in
                if let data = record.metadata.fileOffset {
                    extent = (
                        (data - recordHeader)..<(data + Int64(record.bytes.count)),
                        record.metadata.originalLength > record.bytes.count || record.bytes.count >= snapshotLength
                    )
                }
                return false
            }
            switch step {
            case .record:
                guard let (range, cut) = extent else {
                    problems.append("a record without a file offset")
                    return problems
                }
                take(range, "a record")
                mayLeaveTail = cut
            case .malformed(let fault):
                guard let skipped = fault.skipped else {
                    problems.append("malformed record \(fault.index) names no skipped range")
                    return problems
                }
                take(skipped.range, "skipped range of record \(fault.index)")
                mayLeaveTail = false
            case .end:
                if covered < fileSize(path) && !mayLeaveTail {
                    problems.append("bytes \(covered)..<\(fileSize(path)) are in no record and no skipped range")
                }
                return problems
            }
        }
        return problems
    }

    private static func fileSize(_ path: String) -> Int64 {
        FileInfo.of(path)?.size ?? 0
    }
}
