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

    /// Decodes `paths` in order, handing the output lines to `output` one at a time (without
    /// their line ends). The same as `run(paths:write:diagnostics:)`.
    public func run(paths: [String], output: (String) -> Void, diagnostics: (String) -> Void) -> Outcome {
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
    /// on before it, so the two streams interleave in order on a terminal.
    public func run(
        paths: [String], write: (UnsafeBufferPointer<UInt8>) -> Void, diagnostics: (String) -> Void,
        chunkSize: Int = 1 << 16
    ) -> Outcome {
        var out = JSONWriter(capacity: chunkSize + 4096)
        var scratch = JSONWriter(capacity: 256)
        func flush() {
            guard out.count > 0 else { return }
            out.withBytes(write)
            out.removeAll()
        }
        func endLine() {
            out.newline()
            if out.count >= chunkSize { flush() }
        }
        func line(_ text: String) {
            out.text(text)
            endLine()
        }
        func value(_ v: JSONValue) {
            out.value(v)
            endLine()
        }
        func say(_ text: String) {
            flush()
            diagnostics(text)
        }
        var outcome = Outcome.complete
        var total = DecodeAccounting()
        var files: [JSONValue] = []
        var unreadable: [JSONValue] = []
        var audioFiles: [JSONValue] = []
        for (path, named) in Self.expand(paths, diagnostics: say) {
            if format == .table { line("== \(path)") }
            if AudioDecodeOutput.isAudioFile(path) {
                do {
                    let (summary, complete) = try decodeAudio(path: path, output: line, value: value, diagnostics: say)
                    audioFiles.append(summary)
                    if !complete { outcome = max(outcome, .partiallyDecoded) }
                } catch {
                    say(named ? "error: \(error)" : "skipped: \(error)")
                    if named { outcome = .fileUnreadable }
                    unreadable.append(.object(["file": .string(path), "reason": .string(error.reason)]))
                }
                continue
            }
            var fileAccounting = DecodeAccounting()
            let escapedPath = EscapedString(path)
            do {
                fileAccounting = try CaptureDecoder.decode(
                    path: path,
                    onAdvertisement: { decoded in
                        guard decoded.advertisement.hasADData else { return }
                        if beaconsOnly && decoded.beacons.isEmpty { return }
                        switch format {
                        case .json:
                            if let secureFrames {
                                var object = decoded.jsonObject(file: path)
                                secureFrames.annotate(decoded, &object)
                                out.value(object)
                            } else {
                                decoded.writeJSON(file: escapedPath, to: &out)
                            }
                        case .table: DecodeTable.write(decoded, to: &out, scratch: &scratch)
                        }
                        endLine()
                    },
                    onIssue: { say($0.description) })
            } catch {
                if named {
                    say("error: \(error)")
                    outcome = .fileUnreadable
                } else {
                    say("skipped: \(error)")
                }
                unreadable.append(.object(["file": .string(path), "reason": .string(error.reason)]))
                continue
            }
            if let loss = fileAccounting.lossSummary {
                say("warning: \(path): \(loss)")
                outcome = max(outcome, .partiallyDecoded)
            }
            total.add(fileAccounting)
            var fileObject = fileAccounting.jsonObject
            if case .object(var o) = fileObject {
                o["file"] = .string(path)
                fileObject = .object(o)
            }
            files.append(fileObject)
            if format == .table && summary { line(DecodeTable.summary(fileAccounting)) }
        }
        if summary {
            switch format {
            case .json:
                value(
                    .object([
                        "summary": .object([
                            "files": .array(files), "total": total.jsonObject, "unreadable": .array(unreadable),
                            "audioFiles": .array(audioFiles),
                        ])
                    ]))
            case .table:
                line("== total")
                line(DecodeTable.summary(total))
            }
        }
        flush()
        return outcome
    }

    /// Decodes one sound file; returns its accounting, and false when some of its samples
    /// could not be decoded (said on `diagnostics`).
    private func decodeAudio(
        path: String, output: (String) -> Void, value: (JSONValue) -> Void, diagnostics: (String) -> Void
    ) throws(AudioFileError) -> (JSONValue, Bool) {
        var merged = AudioSightingIntervals(lostTimeout: lostTimeout)
        let result = try AudioFileDecoder().decode(path: path) { frame in
            merged.add(frame)
            switch format {
            case .json: value(AudioDecodeOutput.json(frame, file: path))
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
                case .json: value(AudioDecodeOutput.json(interval, file: path))
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
