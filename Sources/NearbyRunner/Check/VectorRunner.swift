import NearbyAudio
import NearbyBytes
import NearbyCapture
import NearbyDecode
import NearbyFormats
import NearbyJSON
import NearbyMessages
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs one vector through the reference decoder or engine and compares the result with
/// its expectation.
public enum VectorRunner {
    public static func run(_ v: Vector) -> VectorResult {
        var result = VectorResult(id: v.id, kind: v.kind, file: v.file, status: .pass)
        let missing = v.referencedFiles.filter { access($0, R_OK) != 0 }
        if !missing.isEmpty {
            result.status = v.skipWhenFilesAbsent ? .skipped : .error
            result.message = (v.skipWhenFilesAbsent ? "skipped: absent: " : "missing file: ") + missing.joined(separator: ", ")
            return result
        }
        switch v.input {
        case .frame(let input): runFrame(input, v, &result)
        case .capture(let path): runCapture(path, v, &result)
        case .audio(let path): runAudio(path, v, &result)
        case .scenario(let scenario, let captures, let audio): runScenario(scenario, captures, audio, v, &result)
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

    static func runFrame(_ input: Vector.FrameInput, _ v: Vector, _ r: inout VectorResult) {
        var beacons: [BeaconFrame] = []
        var advertisementJSON: JSONValue?
        var firstError: DecodeError?
        switch input {
        case .adData(let bytes):
            let contents = AdvertisingDataDecoder.decode(bytes[...])
            beacons = contents.beacons
            firstError = contents.errors.first
        case .h4(let bytes), .linkLayer(let bytes):
            let encapsulation: Encapsulation
            if case .h4 = input { encapsulation = .hexText } else { encapsulation = .pcap(.bluetoothLELL) }
            var decoder = RecordDecoder()
            var advertisements: [DecodedAdvertisement] = []
            let outcome = decoder.decode(CaptureRecord(index: 1, timestampMicros: nil, encapsulation: encapsulation, bytes: bytes[...])) {
                advertisements.append(DecodedAdvertisement($0))
            }
            decoder.finish { advertisements.append(DecodedAdvertisement($0)) }
            if case .malformed(let e) = outcome { firstError = e }
            if firstError == nil { firstError = advertisements.lazy.compactMap(\.contents.errors.first).first }
            beacons = advertisements.flatMap(\.beacons)
            advertisementJSON = advertisements.first?.jsonObject(file: "")
        }
        switch v.expectation {
        case .error(let key, let offset):
            guard let e = firstError else {
                return fail(&r, "expected \(key) at offset \(offset), but it decoded without a fault",
                            ["got beacons: " + JSONValue.array(beacons.map(BeaconJSON.object)).serialized])
            }
            if e.key != key || e.offset != offset {
                fail(&r, "expected \(key) at offset \(offset), got \(e.key) at offset \(e.offset)", ["reason: \(e.reason)"])
            }
        case .beacons(let expected, let fields):
            if let e = firstError { return fail(&r, "expected a clean decode, got \(e.key) at offset \(e.offset): \(e.reason)") }
            let got = JSONValue.array(beacons.map(BeaconJSON.object))
            if let d = JSONComparison.firstDifference(expected: .array(expected), actual: got, path: "beacons") {
                return fail(&r, d, ["expected: " + JSONValue.array(expected).serialized, "got:      " + got.serialized])
            }
            if !fields.isEmpty {
                guard case .object(let o)? = advertisementJSON else {
                    return fail(&r, "expected an advertisement, got none")
                }
                let actual = JSONValue.object(o.filter { fields[$0.key] != nil })
                if let d = JSONComparison.firstDifference(expected: .object(fields), actual: actual, path: "advertisement") {
                    return fail(&r, d)
                }
            }
        default:
            fail(&r, "internal: a frame vector with a non-frame expectation")
        }
    }

    // MARK: captures

    static func runCapture(_ path: String, _ v: Vector, _ r: inout VectorResult) {
        var beacons: [JSONValue] = []
        let accounting: DecodeAccounting
        do {
            accounting = try CaptureDecoder.decode(path: path, onAdvertisement: { d in
                for b in d.beacons {
                    guard case .object(var o) = BeaconJSON.object(b) else { continue }
                    o["record"] = .int(d.advertisement.record)
                    beacons.append(.object(o))
                }
            }, onIssue: { _ in })
        } catch {
            r.status = .error
            r.message = "\(error)"
            return
        }
        guard case .capture(let expected, let records) = v.expectation else { return fail(&r, "internal: not a capture expectation") }
        let gotRecords = JSONValue.object(["read": .int(accounting.recordsRead), "decoded": .int(accounting.decoded),
                                           "ignored": .int(accounting.ignored), "malformed": .int(accounting.malformed)])
        if let d = JSONComparison.firstDifference(expected: .object(records), actual: gotRecords, path: "records") {
            return fail(&r, d, ["malformed by reason: " + JSONValue.object(accounting.malformedByReason.mapValues { .int($0) }).serialized])
        }
        for i in 0..<max(expected.count, beacons.count) {
            let e = i < expected.count ? expected[i] : nil, g = i < beacons.count ? beacons[i] : nil
            guard let e, let g else {
                return fail(&r, e == nil ? "beacons[\(i)]: an extra beacon was decoded" : "beacons[\(i)]: an expected beacon was not decoded",
                            ["expected: " + (e?.serialized ?? "nothing"), "got:      " + (g?.serialized ?? "nothing")])
            }
            if let d = JSONComparison.firstDifference(expected: e, actual: g, path: "beacons[\(i)]") {
                return fail(&r, d, ["expected: " + e.serialized, "got:      " + g.serialized])
            }
        }
    }

    // MARK: sound files

    /// Frame i matches when token, mode and (if given) channel are equal and the start is
    /// within the tolerance.
    static func runAudio(_ path: String, _ v: Vector, _ r: inout VectorResult) {
        let frames: [AudioTokenFrame]
        do {
            frames = try AudioDecodeCache.shared.frames(path)
        } catch {
            r.status = .error
            r.message = "\(error)"
            return
        }
        guard case .audioFrames(let expected) = v.expectation else { return fail(&r, "internal: not an audio expectation") }
        func show(_ f: AudioTokenFrame) -> String {
            JSONValue.object(["token": .string(Hex.encode(f.token)), "mode": .string(f.mode.rawValue),
                              "start": .number(String(format: "%.6f", f.start)), "channel": .int(f.channel),
                              "snrDb": .number(String(format: "%.1f", f.snrDb))]).serialized
        }
        let tolerance = Double(v.toleranceMicros) / 1e6
        for i in 0..<max(expected.count, frames.count) {
            let e = i < expected.count ? expected[i] : nil, g = i < frames.count ? frames[i] : nil
            var context: [String] = ["expected: " + (e?.serialized ?? "no frame"), "got:      " + (g.map(show) ?? "no frame")]
            if i > 0, i - 1 < frames.count { context.append("after:    " + show(frames[i - 1])) }
            guard let e, let g, case .object(let o) = e else {
                return fail(&r, e == nil ? "frames[\(i)]: an extra frame was decoded" : "frames[\(i)]: an expected frame was not decoded", context)
            }
            if case .string(let token)? = o["token"], token.lowercased() != Hex.encode(g.token) {
                return fail(&r, "frames[\(i)].token: expected \(token), got \(Hex.encode(g.token))", context)
            }
            if case .string(let mode)? = o["mode"], mode != g.mode.rawValue {
                return fail(&r, "frames[\(i)].mode: expected \(mode), got \(g.mode.rawValue)", context)
            }
            if let c = o["channel"], JSONComparison.firstDifference(expected: c, actual: .int(g.channel), path: "") != nil {
                return fail(&r, "frames[\(i)].channel: expected \(c.serialized), got \(g.channel)", context)
            }
            let start: Double? = switch o["start"] {
            case .number(let text)?: Double(text)
            case .integer(let n)?: Double(n)
            default: nil
            }
            if let start, abs(g.start - start) > tolerance {
                return fail(&r, "frames[\(i)].start: expected \(o["start"]!.serialized) ± \(tolerance) s, got \(String(format: "%.6f", g.start))", context)
            }
        }
    }

    // MARK: scenarios

    /// A scenario that must be refused (semantics.md V1): reading it must fail at the expected
    /// path with a reason containing the expected phrase.
    static func runRefusal(_ document: JSONValue, _ v: Vector, _ r: inout VectorResult) {
        guard case .refused(let path, let phrase) = v.expectation else { return fail(&r, "internal: not a refusal expectation") }
        var registryPath: String?
        do {
            let s = try Scenario(json: JSONNode(document), registryPath: &registryPath)
            fail(&r, "expected the scenario to be refused at \(path) (\"\(phrase)\"), but it was accepted",
                 ["accepted: \(s.inputs.count) inputs" + (registryPath.map { ", registry file \($0)" } ?? "")])
        } catch {
            if error.path != path || !error.reason.contains(phrase) {
                fail(&r, "expected a refusal at \(path) (\"\(phrase)\"), got one at \(error.path)",
                     ["expected: \(path): …\(phrase)…", "got:      \(error.description)"])
            }
        }
    }

    static func runScenario(_ scenario: Scenario, _ captures: [String], _ audio: [ReplaySession.AudioFile],
                            _ v: Vector, _ r: inout VectorResult) {
        let replay: ReplaySession.Result
        do {
            replay = try ReplaySession(keepTimeline: true).run(scenario: scenario, captures: captures, audio: audio, onIssue: { _ in })
        } catch {
            r.status = .error
            r.message = error.reason
            return
        }
        guard case .events(let expected) = v.expectation else { return fail(&r, "internal: not a scenario expectation") }
        let got = replay.events.map(EventJSON.object)
        guard let d = EventComparison.firstDivergence(expected: expected, got: got, toleranceMicros: v.toleranceMicros) else { return }
        var details = [
            "expected: " + (d.expected?.serialized ?? "no event"),
            "got:      " + (d.got?.serialized ?? "no event"),
        ]
        if d.index > 0 { details.append("after:    " + got[d.index - 1].serialized) }
        let t = [d.expected, d.got].compactMap { $0.flatMap(eventTime) }.min() ?? 0
        let window: Int64 = max(v.toleranceMicros, 2_000_000) + scenario.configuration.lostTimeoutMicros
        let nearby = replay.timeline.filter { abs($0.timeMicros - t) <= window }
        let shown = nearby.count > 8 ? Array(nearby.prefix(4)) + [(timeMicros: Int64.min, text: "… \(nearby.count - 8) more")] + Array(nearby.suffix(4)) : nearby
        if !shown.isEmpty {
            details.append("inputs within \(JSONValue.seconds(micros: window).serialized) s:")
            details += shown.map { $0.timeMicros == .min ? "  " + $0.text : "  \(JSONValue.seconds(micros: $0.timeMicros).serialized)  \($0.text)" }
        }
        fail(&r, "event #\(d.index + 1): \(d.reason)", details)
    }

    static func eventTime(_ e: JSONValue) -> Int64? {
        guard case .object(let o) = e, let t = o["time"] else { return nil }
        return EventComparison.micros(t)
    }
}
