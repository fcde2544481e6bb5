import NearbyAudio
import NearbyBytes
import NearbyJSON
import NearbyCapture
import NearbyFormats

/// What `nearby-conformance decode` does, as a library call: decode files, write output
/// lines and diagnostics, return the exit status.
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

    public init(beaconsOnly: Bool = false, summary: Bool = false, format: OutputFormat = .json,
                intervals: Bool = false, lostTimeout: Double = 10) {
        self.beaconsOnly = beaconsOnly
        self.summary = summary
        self.format = format
        self.intervals = intervals
        self.lostTimeout = lostTimeout
    }

    /// Exit status when every file was read but some records could not be decoded
    /// (`DecodeAccounting.recordsNotDecoded`, bytes of damage skipped), or some samples of a
    /// sound file (`AudioFileDecoder.Summary.samplesMissing`).
    public static let partiallyDecodedStatus: Int32 = 2

    /// Decodes `paths` in order. A directory stands for the files below it (sorted by
    /// path; files there that are not captures are reported and passed over). Exit status
    /// 0; 1 when a file named on the command line cannot be read at all; else
    /// `partiallyDecodedStatus` (2) when some record of a capture could not be decoded, each
    /// such file named in a line on `diagnostics`.
    public func run(paths: [String], output: (String) -> Void, diagnostics: (String) -> Void) -> Int32 {
        var status: Int32 = 0
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
                    if !complete && status == 0 { status = Self.partiallyDecodedStatus }
                } catch {
                    diagnostics(named ? "error: \(error)" : "skipped: \(error)")
                    if named { status = 1 }
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
                        case .table: output(Self.tableRow(decoded))
                        }
                    },
                    onIssue: { diagnostics($0.description) })
            } catch {
                if named {
                    diagnostics("error: \(error)")
                    status = 1
                } else {
                    diagnostics("skipped: \(error)")
                }
                unreadable.append(.object(["file": .string(path), "reason": .string(error.reason)]))
                continue
            }
            if let loss = fileAccounting.lossSummary {
                diagnostics("warning: \(path): \(loss)")
                if status == 0 { status = Self.partiallyDecodedStatus }
            }
            total.add(fileAccounting)
            var fileObject = fileAccounting.jsonObject
            if case .object(var o) = fileObject { o["file"] = .string(path); fileObject = .object(o) }
            files.append(fileObject)
            if format == .table && summary { output(Self.tableSummary(fileAccounting)) }
        }
        if summary {
            switch format {
            case .json:
                output(JSONValue.object(["summary": .object([
                    "files": .array(files), "total": total.jsonObject, "unreadable": .array(unreadable),
                    "audioFiles": .array(audioFiles),
                ])]).serialized)
            case .table:
                output("== total")
                output(Self.tableSummary(total))
            }
        }
        return status
    }

    /// Decodes one sound file; returns its accounting, and false when some of its samples
    /// could not be decoded (said on `diagnostics`).
    private func decodeAudio(path: String, output: (String) -> Void, diagnostics: (String) -> Void) throws(AudioFileError) -> (JSONValue, Bool) {
        var merged = AudioSightingIntervals(lostTimeout: lostTimeout)
        let result = try AudioFileDecoder().decode(path: path) { frame in
            merged.add(frame)
            switch format {
            case .json: output(AudioDecodeOutput.json(frame, file: path).serialized)
            case .table: output(AudioDecodeOutput.tableRow(frame))
            }
        }
        if result.nonFiniteSamples > 0 {
            diagnostics("warning: \(path): \(result.nonFiniteSamples) NaN or infinite samples, decoded as silence")
        }
        if result.clippedSamples > 0 {
            diagnostics("warning: \(path): \(result.clippedSamples) samples at full scale (the recording clipped)")
        }
        if let missing = result.samplesMissing {
            diagnostics("warning: \(path): cut short: \(missing); decoded the first \(result.sampleFrames) frames (\(String(format: "%.6f", result.seconds)) s), the rest is missing")
        }
        if intervals {
            for interval in merged.intervals() {
                switch format {
                case .json: output(AudioDecodeOutput.json(interval, file: path).serialized)
                case .table:
                    output("interval  \(interval.mode)  \(Hex.encode(interval.token))  \(interval.firstSeen)–\(interval.lastSeen) s  \(interval.frames) frames")
                }
            }
        }
        if format == .table && summary {
            output("\(result.seconds) s at \(result.sampleRate) Hz, \(result.channels) channels: \(result.tokenFrames) token frames")
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
                    diagnostics("skipped: \(repeated): the same directory as \(first), read once (a symbolic link \(repeated.hasPrefix(first + "/") ? "loop" : "to it"))")
                }
                out += walk.files.map { ($0, false) }
            } else {
                out.append((path, true))
            }
        }
        return out
    }

    static func tableRow(_ d: DecodedAdvertisement) -> String {
        let a = d.advertisement
        func col(_ s: String, _ w: Int, right: Bool = false) -> String {
            let pad = String(repeating: " ", count: max(0, w - s.count))
            return right ? pad + s : s + pad
        }
        let time = a.timestampMicros.map(CivilTime.iso8601(micros:)) ?? "-"
        let beacons = d.beacons.map(Self.beaconSummary).joined(separator: "; ")
        let errors = d.contents.errors.map { "! \($0.key) at \($0.offset)" }.joined(separator: "; ")
        return [col(String(a.record), 7, right: true), col(time, 27), col(a.address.description, 17),
                col(a.addressType.description, 15), col(a.rssiDBm.map { String($0) } ?? "-", 4, right: true),
                col(a.eventTypeName, 15), beacons.isEmpty ? errors : beacons + (errors.isEmpty ? "" : "; " + errors)]
            .joined(separator: "  ")
    }

    static func beaconSummary(_ beacon: BeaconFrame) -> String {
        guard case .object(let o) = BeaconJSON.object(beacon) else { return beacon.typeName }
        let fields = o.keys.filter { $0 != "type" }.sorted().map { key in "\(key)=\(o[key]!.serialized)" }
        return ([beacon.typeName] + fields).joined(separator: " ")
    }

    static func tableSummary(_ a: DecodeAccounting) -> String {
        func list(_ d: [String: Int]) -> String {
            d.isEmpty ? "" : " (" + d.keys.sorted().map { "\($0) \(d[$0]!)" }.joined(separator: ", ") + ")"
        }
        return """
        records read \(a.recordsRead): decoded \(a.decoded), ignored \(a.ignored)\(list(a.ignoredByReason)), malformed \(a.malformed)\(list(a.malformedByReason))
        advertisements \(a.advertisements) with AD data, \(a.advertisementsWithoutData) without, \(a.truncatedAdvertisements) truncated; beacons\(a.beaconsByType.isEmpty ? " 0" : list(a.beaconsByType))
        """ + (a.bytesSkipped > 0 ? "\nskipped \(a.bytesSkipped) bytes of damage, \(a.resynchronizations) resynchronisation\(a.resynchronizations == 1 ? "" : "s")" : "")
    }
}
