import NearbyBytes
import NearbyCapture

/// The contract of `CaptureRecordReader.read`: the records and steps a file gives read in
/// runs (the closure returns true, as `CaptureDecoder` reads) are, in order, those it gives
/// read one record at a time (the closure returns false), with the same metadata and bytes.
public enum RunReadCheck {
    /// The first difference between the file at `path` read in runs and read one record at
    /// a time, in words (empty when they agree, or when the file cannot be opened).
    public static func violations(path: String) -> [String] {
        violations { try CaptureFile.open(path) }
    }

    /// The same for the readers `open` makes (called twice: one reader per way of reading).
    static func violations(open: () throws -> any CaptureRecordReader) -> [String] {
        guard let single = try? open(), let runs = try? open() else { return [] }
        let oneByOne = steps(single, inRuns: false)
        let inRuns = steps(runs, inRuns: true)
        guard oneByOne != inRuns else { return [] }
        let i =
            zip(oneByOne, inRuns).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            ?? min(oneByOne.count, inRuns.count)
        let one = i < oneByOne.count ? String(describing: oneByOne[i]) : "nothing"
        let run = i < inRuns.count ? String(describing: inRuns[i]) : "nothing"
        return ["step \(i + 1): read one at a time gives \(one), read in runs \(run)"]
    }

    /// A record, or a malformed step, as read.
    private enum Step: Equatable {
        case record(RecordMetadata, [UInt8])
        case malformed(ContainerFault)
    }

    /// Each record (its metadata and bytes) and each malformed step, in order.
    private static func steps(_ reader: any CaptureRecordReader, inRuns: Bool) -> [Step] {
        var out: [Step] = []
        while true {
            let step = reader.read { record in
                out.append(.record(record.metadata, record.bytes.withUnsafeBufferPointer { Array($0) }))
                return inRuns
            }
            switch step {
            case .record: continue
            case .malformed(let fault): out.append(.malformed(fault))
            case .end: return out
            }
        }
    }
}
