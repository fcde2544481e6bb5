import NearbyAudio
import NearbyBytes
import NearbyCapture
import NearbyDecode
import NearbyFormats
import NearbyJSON
import NearbyText

extension DecodeSession {
    /// What one file adds to a run's report.
    struct FileResult: Sendable {
        var outcome = Outcome.complete
        /// A capture's accounting, when it was read.
        var accounting: DecodeAccounting?
        /// Why the file could not be read at all.
        var unreadable: String?
        /// A sound file's summary object.
        var audio: JSONValue?
    }

    /// Decodes one file (`named` when the user named it, rather than a directory holding
    /// it), its output to `write` in chunks of whole lines of about `chunkSize` bytes and its
    /// diagnostics to `diagnostics`, each after the output that preceded it. With `reader`,
    /// its records are decoded under the name `path` (a live source) instead of the file's.
    func decodeFile(
        path: String, named: Bool, chunkSize: Int, write: (UnsafeBufferPointer<UInt8>) -> Void,
        diagnostics: (String) -> Void, reader given: (any CaptureRecordReader)? = nil
    ) -> FileResult {
        // The helpers take the writer `inout`; none captures it.
        var out = JSONWriter(capacity: chunkSize + 4096)
        var scratch = DecodeTable.Scratch()
        func flush(_ out: inout JSONWriter) {
            guard out.count > 0 else { return }
            out.withBytes(write)
            out.removeAll()
        }
        func endLine(_ out: inout JSONWriter) {
            out.newline()
            if out.count >= chunkSize { flush(&out) }
        }
        func say(_ text: String, _ out: inout JSONWriter) {
            flush(&out)
            diagnostics(text)
        }
        defer { flush(&out) }
        var result = FileResult()
        /// A file that cannot be read: an error when named, passed over when found in a folder.
        func unreadable(_ description: String, reason: String, _ out: inout JSONWriter) {
            say(named ? "error: \(description)" : "skipped: \(description)", &out)
            if named { result.outcome = .fileUnreadable }
            result.unreadable = reason
        }
        if format == .table {
            out.text("== \(path)")
            endLine(&out)
        }
        if given == nil && AudioDecodeOutput.isAudioFile(path) {
            do {
                let (summary, complete) = try decodeAudio(
                    path: path,
                    output: {
                        out.text($0)
                        endLine(&out)
                    },
                    value: {
                        out.value($0)
                        endLine(&out)
                    },
                    diagnostics: { say($0, &out) })
                result.audio = summary
                if !complete { result.outcome = .partiallyDecoded }
            } catch {
                unreadable("\(error)", reason: error.reason, &out)
            }
            return result
        }
        let escapedPath = EscapedString(path)
        // The line a display filter reads, written apart from the output.
        var filterLine = JSONWriter(capacity: filter == nil ? 0 : 1024)
        if format == .table {
            out.text(DecodeTable.header)
            endLine(&out)
        }
        let reader: any CaptureRecordReader
        if let given {
            reader = given
        } else {
            do {
                reader = try CaptureFile.open(path)
            } catch {
                unreadable("\(error)", reason: error.reason, &out)
                return result
            }
        }
        let accounting = CaptureDecoder.decode(
            reader, name: path,
            onAdvertisement: { decoded in
                guard decoded.advertisement.hasADData else { return }
                onAdvertisement?(decoded, path)
                if beaconsOnly && decoded.beacons.isEmpty { return }
                if let filter {
                    let line = decoded.jsonMembers(filter.memberNames, file: escapedPath, scratch: &filterLine)
                    guard filter.matches(line) else { return }
                }
                switch format {
                case .json:
                    decoded.writeJSON(
                        file: escapedPath, to: &out, beaconMembers: secureFrames?.members(decoded) ?? [])
                case .table: DecodeTable.write(decoded, to: &out, scratch: &scratch)
                }
                endLine(&out)
            },
            onIssue: { issue in
                onIssue?(issue)
                say(issue.description, &out)
            })
        if let loss = accounting.lossSummary {
            say("warning: \(path): \(loss)", &out)
            result.outcome = .partiallyDecoded
        }
        result.accounting = accounting
        if format == .table && summary {
            out.text(DecodeTable.summary(accounting))
            endLine(&out)
        }
        return result
    }

    /// Decodes one sound file; returns its accounting, and false when some of its samples
    /// could not be decoded (said on `diagnostics`).
    func decodeAudio(
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
                    + "(\(PrintfText.format("%.6f", result.seconds)) s), the rest is missing"
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
}
