import NearbyCapture
import NearbyDecode

extension DecodeSession {
    /// Decodes the records `reader` yields as they come (`decode --live`): the output is
    /// what a file of the same records gives, each line handed to `write` as soon as it is
    /// made, the source named `name` in the output and the diagnostics. Returns when the
    /// reader ends.
    package func run(
        live reader: any CaptureRecordReader, name: String, write: (UnsafeBufferPointer<UInt8>) -> Void,
        diagnostics: (String) -> Void
    ) -> Outcome {
        var report = RunReport()
        let result = decodeFile(
            path: name, named: true, chunkSize: 1, write: write, diagnostics: diagnostics, reader: reader)
        report.add(result, path: name)
        writeSummary(report, write: write)
        return report.outcome
    }
}
