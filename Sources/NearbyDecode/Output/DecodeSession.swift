import NearbyAudio
import NearbyBytes
import NearbyCapture
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
    public var summary = false
    public var format = OutputFormat.json
    /// For sound files: also print the merged sighting intervals of each token.
    public var intervals = false
    /// For sound files: the lost timeout of the intervals, seconds.
    public var lostTimeout = 10.0
    /// Resolves EID frames and decrypts eTLM frames in JSON output (`decode --registry`).
    public var secureFrames: SecureFrameAnnotator?

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

    /// Decodes `paths` in order. A directory stands for the files below it (sorted by
    /// path; files there that are not captures are reported and passed over). Each file
    /// not wholly decoded is named in a line on `diagnostics`.
    public func run(paths: [String], output: (String) -> Void, diagnostics: (String) -> Void) -> Outcome {
        var outcome = Outcome.complete
        var total = DecodeAccounting()
        var files: [JSONValue] = []
        var unreadable: [JSONValue] = []
        var audioFiles: [JSONValue] = []
        for (path, named) in Self.expand(paths, diagnostics: diagnostics) {
            if format == .table { output("== \(path)") }
            if AudioDecodeOutput.isAudioFile(path) {
                do {
                    let (summary, complete) = try decodeAudio(path: path, output: output, diagnostics: diagnostics)
                    audioFiles.append(summary)
                    if !complete { outcome = max(outcome, .partiallyDecoded) }
                } catch {
                    diagnostics(named ? "error: \(error)" : "skipped: \(error)")
                    if named { outcome = .fileUnreadable }
                    unreadable.append(.object(["file": .string(path), "reason": .string(error.reason)]))
                }
                continue
            }
            var fileAccounting = DecodeAccounting()
            do {
                fileAccounting = try CaptureDecoder.decode(
                    path: path,
                    onAdvertisement: { decoded in
                        guard decoded.advertisement.hasADData else { return }
                        if beaconsOnly && decoded.beacons.isEmpty { return }
                        switch format {
                        case .json:
                            var object = decoded.jsonObject(file: path)
                            secureFrames?.annotate(decoded, &object)
                            output(object.serialized)
                        case .table: output(DecodeTable.row(decoded))
                        }
                    },
                    onIssue: { diagnostics($0.description) })
            } catch {
                if named {
                    diagnostics("error: \(error)")
                    outcome = .fileUnreadable
                } else {
                    diagnostics("skipped: \(error)")
                }
                unreadable.append(.object(["file": .string(path), "reason": .string(error.reason)]))
                continue
            }
            if let loss = fileAccounting.lossSummary {
                diagnostics("warning: \(path): \(loss)")
                outcome = max(outcome, .partiallyDecoded)
            }
            total.add(fileAccounting)
            var fileObject = fileAccounting.jsonObject
            if case .object(var o) = fileObject {
                o["file"] = .string(path)
                fileObject = .object(o)
            }
            files.append(fileObject)
            if format == .table && summary { output(DecodeTable.summary(fileAccounting)) }
        }
        if summary {
            switch format {
            case .json:
                output(
                    JSONValue.object([
                        "summary": .object([
                            "files": .array(files), "total": total.jsonObject, "unreadable": .array(unreadable),
                            "audioFiles": .array(audioFiles),
                        ])
                    ]).serialized)
            case .table:
                output("== total")
                output(DecodeTable.summary(total))
            }
        }
        return outcome
    }

    /// Decodes one sound file; returns its accounting, and false when some of its samples
    /// could not be decoded (said on `diagnostics`).
    private func decodeAudio(
        path: String, output: (String) -> Void, diagnostics: (String) -> Void
    ) throws(AudioFileError) -> (JSONValue, Bool) {
        var merged = AudioSightingIntervals(lostTimeout: lostTimeout)
        let result = try AudioFileDecoder().decode(path: path) { frame in
            merged.add(frame)
            switch format {
            case .json: output(AudioDecodeOutput.json(frame, file: path).serialized)
            case .table: output(DecodeTable.row(frame))
            }
        }
        if result.nonFiniteSamples > 0 {
            diagnostics("warning: \(path): \(result.nonFiniteSamples) NaN or infinite samples, decoded as silence")
        }
        if result.clippedSamples > 0 {
            diagnostics("warning: \(path): \(result.clippedSamples) samples at full scale (the recording clipped)")
        }
        if let missing = result.samplesMissing {
            diagnostics(
                "warning: \(path): cut short: \(missing); decoded the first \(result.sampleFrames) frames "
                    + "(\(String(format: "%.6f", result.seconds)) s), the rest is missing"
            )
        }
        if intervals {
            for interval in merged.intervals() {
                switch format {
                case .json: output(AudioDecodeOutput.json(interval, file: path).serialized)
                case .table:
                    output(
                        "interval  \(interval.mode)  \(Hex.encode(interval.token))  "
                            + "\(interval.firstSeen)–\(interval.lastSeen) s  \(interval.frames) frames"
                    )
                }
            }
        }
        if format == .table && summary {
            output(
                "\(result.seconds) s at \(result.sampleRate) Hz, \(result.channels) channels: \(result.tokenFrames) "
                    + "token frames"
            )
        }
        return (AudioDecodeOutput.json(result, file: path), result.samplesMissing == nil)
    }

    /// Paths in order, each with whether it was named (true) or found in a directory; a
    /// directory reached again through a symbolic link is said on `diagnostics` and not read
    /// twice.
    static func expand(_ paths: [String], diagnostics: (String) -> Void = { _ in }) -> [(String, Bool)] {
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
