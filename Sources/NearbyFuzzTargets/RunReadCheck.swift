import NearbyCapture

/// The contract of `CaptureRecordReader.readRun`: the records and steps a file gives read in
/// runs (as `CaptureDecoder` reads) are, in order, those it gives read one record at a time
/// (`read`), with the same metadata and bytes.
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
        let firstDifferent = zip(oneByOne, inRuns).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        guard let i = firstDifferent ?? mismatchedEnd(oneByOne, inRuns) else { return [] }
        let one = i < oneByOne.count ? oneByOne[i] : "nothing"
        let run = i < inRuns.count ? inRuns[i] : "nothing"
        return ["step \(i + 1): read one at a time gives \(one), read in runs \(run)"]
    }

    /// The index past the shorter list when one list is a prefix of the other.
    private static func mismatchedEnd(_ a: [String], _ b: [String]) -> Int? {
        a.count == b.count ? nil : min(a.count, b.count)
    }

    /// Each record (its metadata and bytes) and each malformed step, described, in order.
    private static func steps(_ reader: any CaptureRecordReader, inRuns: Bool) -> [String] {
        var out: [String] = []
        let body: (borrowing RecordView) -> Void = { out.append(String(describing: CaptureRecord(copying: $0))) }
        while true {
            let step = inRuns ? reader.readRun(body) : reader.read(body)
            switch step {
            case .record: continue
            case .malformed: out.append(String(describing: step))
            case .end: return out
            }
        }
    }
}
