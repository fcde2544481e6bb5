import NearbyAudio
import NearbyBytes
import NearbyCapture
import NearbyDecode
import NearbyFormats
import NearbyJSON

/// What `nearby-conformance decode` does, as a library call: decode files, write output
/// lines and diagnostics, and say how complete the decoding was (`Outcome`).
public struct DecodeSession {
    public enum OutputFormat: String, Sendable, CaseIterable {
        /// One JSON object per advertisement per line, keys sorted.
        case json
        /// Aligned columns for people.
        case table
    }

    public var beaconsOnly = false
    /// Prints only the advertisements whose line passes it (`decode -Y`); the accounting is
    /// still of every record.
    public var filter: DisplayFilter?
    public var summary = false
    public var format = OutputFormat.json
    /// For sound files: also print the merged sighting intervals of each token.
    public var intervals = false
    /// For sound files: the lost timeout of the intervals, seconds.
    public var lostTimeout = 10.0
    /// Resolves EID frames and decrypts eTLM frames in JSON output (`decode --registry`).
    public var secureFrames: SecureFrameAnnotator?
    /// Files decoded at once (1…); the output is the same whatever the number.
    public var jobs = 1
    /// Called with every advertisement that has AD data (`beaconsOnly` or not) and the path of
    /// its capture, in output order; a run with it decodes one file at a time, whatever `jobs`.
    package var onAdvertisement: ((DecodedAdvertisement, String) -> Void)?
    /// Called with every decoding fault, after the advertisements before it.
    package var onIssue: ((DecodeIssue) -> Void)?

    public init(
        beaconsOnly: Bool = false, summary: Bool = false, format: OutputFormat = .json,
        intervals: Bool = false, lostTimeout: Double = 10
    ) {
        self.beaconsOnly = beaconsOnly
        self.summary = summary
        self.format = format
        self.intervals = intervals
        self.lostTimeout = lostTimeout
    }

    /// How completely a run decoded its files; a run's outcome is the worst of its files'.
    public enum Outcome: Int, Sendable, Comparable {
        /// Every file was read and every record decoded (or ignored by design).
        case complete
        /// Every file named was read, but some records could not be decoded
        /// (`DecodeAccounting.recordsNotDecoded`, bytes of damage skipped) or some samples of a
        /// sound file are missing (`AudioFileDecoder.Summary.samplesMissing`).
        case partiallyDecoded
        /// A file named on the command line could not be read at all.
        case fileUnreadable

        public static func < (a: Outcome, b: Outcome) -> Bool { a.rawValue < b.rawValue }
    }

    /// Decodes `paths` in order, handing the output lines to `output` one at a time (without
    /// their line ends). The same as `run(paths:write:diagnostics:)`.
    package func run(paths: [String], output: (String) -> Void, diagnostics: (String) -> Void) -> Outcome {
        run(
            paths: paths,
            write: { chunk in
                for line in chunk.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).dropLast() {
                    output(String(decoding: line, as: UTF8.self))
                }
            }, diagnostics: diagnostics)
    }

    /// Decodes `paths` in order. A directory stands for the files below it (sorted by
    /// path; files there that are not captures are reported and passed over). Each file
    /// not wholly decoded is named in a line on `diagnostics`.
    ///
    /// The output text goes to `write` in chunks of whole lines (UTF-8, each line ending in a
    /// line feed) of about `chunkSize` bytes; what was written before a diagnostic is handed
    /// on before it, so the two streams interleave in order on a terminal. With `jobs` above
    /// 1, up to `jobs` files are decoded at once and their output handed on in the same order
    /// and with the same bytes as with one job (`secureFrames` decodes one file at a time:
    /// its eTLM pairing carries from file to file).
    package func run(
        paths: [String], write: (UnsafeBufferPointer<UInt8>) -> Void, diagnostics: (String) -> Void,
        chunkSize: Int = 1 << 16
    ) -> Outcome {
        var report = RunReport()
        let files = Self.expand(paths, diagnostics: diagnostics)
        if jobs > 1 && files.count > 1 && secureFrames == nil && onAdvertisement == nil && onIssue == nil {
            decodeAhead(files, chunkSize: chunkSize, report: &report, write: write, diagnostics: diagnostics)
        } else {
            for (path, named) in files {
                let result = decodeFile(
                    path: path, named: named, chunkSize: chunkSize, write: write, diagnostics: diagnostics)
                report.add(result, path: path)
            }
        }
        writeSummary(report, write: write)
        return report.outcome
    }

    /// Writes the run's summary (`summary`), if asked for.
    func writeSummary(_ report: RunReport, write: (UnsafeBufferPointer<UInt8>) -> Void) {
        guard summary else { return }
        var out = JSONWriter(capacity: 4096)
        switch format {
        case .json:
            out.value(
                .object([
                    "summary": .object([
                        "files": .array(report.files), "total": report.total.jsonObject,
                        "unreadable": .array(report.unreadable), "audioFiles": .array(report.audioFiles),
                    ])
                ]))
            out.newline()
        case .table:
            out.text("== total\n")
            out.text(DecodeTable.summary(report.total))
            out.newline()
        }
        out.withBytes(write)
    }

    /// What the files of a run add up to, in the order they were named.
    struct RunReport {
        var outcome = Outcome.complete
        var total = DecodeAccounting()
        var files: [JSONValue] = []
        var unreadable: [JSONValue] = []
        var audioFiles: [JSONValue] = []

        mutating func add(_ result: FileResult, path: String) {
            outcome = max(outcome, result.outcome)
            if let reason = result.unreadable {
                unreadable.append(.object(["file": .string(path), "reason": .string(reason)]))
            }
            if let audio = result.audio { audioFiles.append(audio) }
            if let accounting = result.accounting {
                total.add(accounting)
                var fileObject = accounting.jsonObject
                if case .object(var o) = fileObject {
                    o["file"] = .string(path)
                    fileObject = .object(o)
                }
                files.append(fileObject)
            }
        }
    }

    /// Paths in order, each with whether it was named (true) or found in a directory; a
    /// directory reached again through a symbolic link is said on `diagnostics` and not read
    /// twice.
    package static func expand(_ paths: [String], diagnostics: (String) -> Void = { _ in }) -> [(String, Bool)] {
        var out: [(String, Bool)] = []
        for path in paths {
            if FileTree.isDirectory(path) {
                let walk = FileTree.walk(path)
                for (repeated, first) in walk.repeats {
                    diagnostics(
                        "skipped: \(repeated): the same directory as \(first), read once (a symbolic link "
                            + "\(repeated.hasPrefix(first + "/") ? "loop" : "to it"))"
                    )
                }
                out += walk.files.map { ($0, false) }
            } else {
                out.append((path, true))
            }
        }
        return out
    }
}
