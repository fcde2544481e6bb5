import NearbyAudio
import NearbyBytes
import NearbyCapture
import NearbyDecode
import NearbyFormats
import NearbyJSON
import NearbyMessages
import NearbyReplay
import NearbyText

/// Runs one vector through the reference decoder or engine and compares the result with
/// its expectation. Sound files are decoded through `audioFrames`, so that vectors sharing a
/// recording decode it once.
public enum VectorRunner {
    public static func run(_ v: Vector, audioFrames: AudioFrameCache) -> VectorResult {
        if let missing = VectorResult.missingFiles(of: v) { return missing }
        var result = VectorResult(id: v.id, kind: v.kind.rawValue, file: v.file, status: .pass)
        switch v.input {
        case .frame(let input): runFrame(input, v, &result)
        case .capture(let path): runCapture(path, v, &result)
        case .audio(let path): runAudio(path, audioFrames, v, &result)
        case .scenario(let scenario, let captures, let audio):
            runScenario(scenario, captures, audio, audioFrames, v, &result)
        case .scenarioDocument(let document): runRefusal(document, v, &result)
        }
        return result
    }

    static func fail(_ r: inout VectorResult, _ message: String, _ details: [String] = []) {
        r.status = .fail
        r.message = message
        r.details = details
    }

    // MARK: frames

    /// What the reference decoder makes of a frame input: beacons (as `decode` prints them),
    /// the first fault, and the first advertisement's object.
    public static func decodeFrame(
        _ input: Vector.FrameInput
    ) -> (beacons: [JSONValue], fault: DecodeError?, advertisement: [String: JSONValue]?) {
        var beacons: [BeaconFrame] = []
        var advertisementJSON: JSONValue?
        var firstError: DecodeError?
        switch input {
        case .adData(let bytes):
            let contents = AdvertisingDataDecoder.decode(bytes[...])
            beacons = Array(contents.beacons)
            firstError = contents.errors.first
        case .h4(let bytes), .linkLayer(let bytes):
            let encapsulation: Encapsulation
            if case .h4 = input { encapsulation = .hexText } else { encapsulation = .pcap(.bluetoothLELL) }
            var decoder = RecordDecoder()
            let (outcome, decoded) = decoder.decode(
                CaptureRecord(index: 1, timestampMicros: nil, encapsulation: encapsulation, bytes: bytes[...]))
            let advertisements = (decoded + decoder.finish()).map { DecodedAdvertisement($0) }
            if case .malformed(let e) = outcome { firstError = e }
            if firstError == nil { firstError = advertisements.lazy.compactMap(\.contents.errors.first).first }
            beacons = advertisements.flatMap(\.beacons)
            advertisementJSON = advertisements.first?.jsonObject(file: "")
        }
        var advertisement: [String: JSONValue]?
        if case .object(let o)? = advertisementJSON { advertisement = o }
        return (beacons.map(BeaconJSON.object), firstError, advertisement)
    }

    static func runFrame(_ input: Vector.FrameInput, _ v: Vector, _ r: inout VectorResult) {
        let d = decodeFrame(input)
        VectorComparison.anyReading(v, &r) { v, r in
            VectorComparison.frame(
                v, beacons: d.beacons, fault: d.fault.map { ($0.key, $0.offset, $0.reason) },
                advertisement: d.advertisement, advertisementRequired: true, &r)
        }
    }

    // MARK: captures

    /// Every beacon of a capture with its record, and the record accounting.
    package static func decodeCapture(
        _ path: String
    ) throws(CaptureFileError) -> (beacons: [JSONValue], accounting: DecodeAccounting) {
        var beacons: [JSONValue] = []
        let accounting = try CaptureDecoder.decode(
            path: path,
            onAdvertisement: { d in
                for b in d.beacons {
                    guard case .object(var o) = BeaconJSON.object(b) else { continue }
                    o["record"] = .int(d.advertisement.record)
                    beacons.append(.object(o))
                }
            }, onIssue: { _ in })
        return (beacons, accounting)
    }

    package static func recordsJSON(_ a: DecodeAccounting) -> JSONValue {
        .object([
            "read": .int(a.recordsRead), "decoded": .int(a.decoded), "ignored": .int(a.ignored),
            "malformed": .int(a.malformed), "skippedBytes": .int(Int(a.bytesSkipped)),
            "resynchronizations": .int(a.resynchronizations),
        ])
    }

    static func runCapture(_ path: String, _ v: Vector, _ r: inout VectorResult) {
        let decoded: (beacons: [JSONValue], accounting: DecodeAccounting)
        do {
            decoded = try decodeCapture(path)
        } catch {
            r.status = .error
            r.message = "\(error)"
            return
        }
        let recordDetails = [
            "malformed by reason: "
                + JSONValue.object(decoded.accounting.malformedByReason.mapValues { .int($0) }).serialized
        ]
        VectorComparison.anyReading(v, &r) { v, r in
            VectorComparison.capture(
                v, beacons: decoded.beacons, records: recordsJSON(decoded.accounting), recordDetails: recordDetails, &r)
        }
    }

    // MARK: sound files

    /// Frame i matches when token, mode and (if given) channel are equal and the start is
    /// within the tolerance.
    static func runAudio(_ path: String, _ audioFrames: AudioFrameCache, _ v: Vector, _ r: inout VectorResult) {
        let frames: [AudioTokenFrame]
        do {
            frames = try audioFrames.frames(path)
        } catch {
            r.status = .error
            r.message = "\(error)"
            return
        }
        let json = frames.map(Self.audioFrameJSON)
        VectorComparison.anyReading(v, &r) { v, r in VectorComparison.audio(v, frames: json, &r) }
    }

    /// A decoded frame as an audio vector compares it (and shows it in a divergence).
    package static func audioFrameJSON(_ f: AudioTokenFrame) -> JSONValue {
        .object([
            "token": .string(Hex.encode(f.token)), "mode": .string(f.mode.rawValue),
            "start": .number(PrintfText.format("%.6f", f.start)), "channel": .int(f.channel),
            "snrDb": .number(PrintfText.format("%.1f", f.snrDb)),
        ])
    }

    // MARK: scenarios

    /// A scenario that must be refused (docs/spec/engine.md V1): reading it must fail at the expected
    /// path with a reason containing the expected phrase.
    static func runRefusal(_ document: JSONValue, _ v: Vector, _ r: inout VectorResult) {
        var registryPath: String?
        do {
            _ = try Scenario(json: JSONNode(document), registryPath: &registryPath)
            VectorComparison.refusal(v, refusal: nil, phraseMatters: true, &r)
        } catch {
            VectorComparison.refusal(v, refusal: (error.location, error.reason), phraseMatters: true, &r)
        }
    }

    static func runScenario(
        _ scenario: Scenario, _ captures: [String], _ audio: [ReplaySession.AudioFile],
        _ audioFrames: AudioFrameCache, _ v: Vector, _ r: inout VectorResult
    ) {
        let replay: ReplaySession.Result
        do {
            replay = try ReplaySession(keepTimeline: true, audioFrames: audioFrames).run(
                scenario: scenario, captures: captures, audio: audio, onIssue: { _ in })
        } catch {
            r.status = .error
            r.message = error.reason
            return
        }
        let got = replay.events.map(EventJSON.object)
        var firstDivergence: EventComparison.Divergence??
        VectorComparison.anyReading(v, &r) { v, r in
            let d = VectorComparison.events(v, got: got, &r)
            if firstDivergence == nil { firstDivergence = .some(d) }
        }
        guard r.status == .fail, let d = firstDivergence ?? nil else { return }
        var details = r.details
        let t = [d.expected, d.got].compactMap { $0.flatMap(eventTime) }.min() ?? 0
        let window: Int64 = max(v.toleranceMicros, 2_000_000) + scenario.configuration.lostTimeoutMicros
        let nearby = replay.timeline.filter { abs($0.timeMicros - t) <= window }
        let shown =
            nearby.count > 8
            ? Array(nearby.prefix(4)) + [(timeMicros: Int64.min, text: "… \(nearby.count - 8) more")]
                + Array(nearby.suffix(4)) : nearby
        if !shown.isEmpty {
            details.append("inputs within \(JSONValue.seconds(micros: window).serialized) s:")
            details += shown.map {
                $0.timeMicros == .min
                    ? "  " + $0.text : "  \(JSONValue.seconds(micros: $0.timeMicros).serialized)  \($0.text)"
            }
        }
        r.details = details
    }

    static func eventTime(_ e: JSONValue) -> Int64? {
        guard case .object(let o) = e, let t = o["time"] else { return nil }
        return EventComparison.micros(t)
    }
}
