import Foundation
import NearbyAudio
import NearbyBytes
import NearbyCapture
import NearbyDecode
import NearbyJSON
import NearbySynthesis
import NearbyTestSupport
import Testing

/// The committed synthesized captures (Captures/synthetic) are exactly what their scenarios
/// synthesize, and their ground truth is what the decoder finds in them.
struct SynthesizedCaptureTests {
    static let folder = RepositoryPaths.root + "/Captures/synthetic"
    static let scenarios: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
        .filter { $0.hasSuffix(".scenario.json") }.map { String($0.dropLast(".scenario.json".count)) }.sorted()

    @Test func thereAreEightSynthesizedScenarios() {
        #expect(Self.scenarios.count >= 8, "\(Self.scenarios)")
    }

    @Test(arguments: scenarios)
    func committedFilesAreWhatTheScenarioSynthesizes(_ name: String) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let run = try SynthesisRun(scenarioPath: "\(Self.folder)/\(name).scenario.json")
        let fresh = SynthesisRun.Files(directory: dir.path, name: name, audio: run.world.audio?.container)
        try run.write(to: fresh)
        let committed = SynthesisRun.Files(
            directory: "\(Self.folder)/\(name)", name: name, audio: run.world.audio?.container)
        #expect(fresh.all.count == committed.all.count)
        for (a, b) in zip(fresh.all, committed.all) {
            // A FLAC file's bytes depend on the libFLAC version that wrote it: compare samples.
            let x = a == fresh.audio ? try Self.samples(a) : FileManager.default.contents(atPath: a)
            let y = b == committed.audio ? try Self.samples(b) : FileManager.default.contents(atPath: b)
            #expect(
                x != nil && x == y,
                """
                \(b) differs from a fresh synthesis: run `swift run nearby-conformance synthesize \
                Captures/synthetic/\(name).scenario.json -o Captures/synthetic/\(name)`
                """
            )
        }
    }

    /// The recording holds exactly the frames the truth lists as loud enough (≥ 0 dB in-band):
    /// each decodes, in order, starting within 1 ms of the truth; the quiet ones (≤ −18 dB)
    /// and anything else do not.
    @Test(arguments: scenarios)
    func recordingDecodesToTheFramesOfTheTruth(_ name: String) throws {
        let truth = try JSONFile.load("\(Self.folder)/\(name)/\(name).truth.json")
        guard case .object(let t) = truth.value, case .object(let audio)? = t["audio"],
            case .array(let broadcasters)? = audio["broadcasters"], case .array(let files)? = t["files"],
            case .string(let file)? = files.last
        else { return }
        var expected: [(start: Double, token: String)] = []
        for case .object(let b) in broadcasters {
            guard case .string(let token)? = b["token"], case .array(let frames)? = b["frames"] else { continue }
            for case .object(let f) in frames {
                guard case .number(let snr)? = f["snrDb"], case .number(let start)? = f["start"] else { continue }
                if Double(snr)! >= 0 { expected.append((Double(start)!, token)) }
            }
        }
        expected.sort { $0.start < $1.start }
        var got: [AudioTokenFrame] = []
        _ = try AudioFileDecoder().decode(path: "\(Self.folder)/\(name)/\(file)") { got.append($0) }
        #expect(got.map { Hex.encode($0.token) } == expected.map(\.token))
        for (g, e) in zip(got, expected) { #expect(abs(g.start - e.start) < 0.001, "\(g.start) vs \(e.start)") }
        #expect(!expected.isEmpty)
    }

    /// A sound file's sample rate, channels and samples, as bytes to compare.
    static func samples(_ path: String) throws -> Data {
        let reader = try SoundFileReader(path: path)
        var all: [Float] = [Float(reader.sampleRate), Float(reader.channels)]
        var buffer: [Float] = []
        while case let n = reader.read(into: &buffer, frames: 65_536), n > 0 {
            all += buffer.prefix(n * reader.channels)
        }
        return all.withUnsafeBytes { Data($0) }
    }

    /// Every sighting the truth lists is an advertisement the decoder reports in that record,
    /// at that time, with that RSSI, from that device with that frame, and nothing else of
    /// the listed devices is in the capture; the accounting adds up to the truth's counts.
    @Test(arguments: scenarios)
    func groundTruthIsWhatTheDecoderFinds(_ name: String) throws {
        let truth = try JSONFile.load("\(Self.folder)/\(name)/\(name).truth.json")
        guard case .object(let t) = truth.value, case .array(let devices)? = t["devices"],
            case .object(let hci)? = t["hci"], case .object(let air)? = t["air"],
            let origin = t["timeOriginUnixSeconds"].flatMap(Self.micros)
        else {
            Issue.record("unreadable truth")
            return
        }
        let files = SynthesisRun.Files(directory: "\(Self.folder)/\(name)", name: name)
        for (path, view) in [
            (files.btsnoop, "hci"), (files.pcap201, "hci"), (files.pcap187, "hci"), (files.pcap256, "air"),
        ] {
            // (address, data hex) → [(record, µs, rssi)] as decoded.
            var decoded: [String: [String]] = [:]
            var issues = 0
            let acc = try CaptureDecoder.decode(
                path: path,
                onAdvertisement: { d in
                    let a = d.advertisement
                    guard let data = a.data else { return }
                    let key = "\(a.address) \(Hex.encode(Array(data)))"
                    decoded[key, default: []].append(
                        "\(a.record) \((a.timestampMicros ?? 0) - origin) \(a.rssiDBm.map(String.init) ?? "nil")")
                }, onIssue: { _ in issues += 1 })
            #expect(issues == 0 && acc.malformed == 0, "\(path)")
            #expect(acc.recordsRead == acc.decoded + acc.ignored + acc.malformed)
            if view == "hci" {
                #expect(Int64(acc.recordsRead) == hci["records"].flatMap(Self.int), "\(path)")
                #expect(Int64(acc.decoded) == hci["advertisingEvents"].flatMap(Self.int), "\(path)")
                #expect(
                    Int64(acc.advertisements + acc.advertisementsWithoutData)
                        == hci["advertisements"].flatMap(Self.int), "\(path)")
            } else {
                #expect(Int64(acc.recordsRead) == air["records"].flatMap(Self.int), "\(path)")
            }
            var listed = 0
            for case .object(let device) in devices {
                guard case .string(let deviceAddress)? = device["address"], case .array(let frames)? = device["frames"]
                else { continue }
                for case .object(let frame) in frames {
                    guard case .string(let ad)? = frame["adData"], case .object(let v)? = frame[view],
                        case .array(let sightings)? = v["sightings"]
                    else { continue }
                    var address = deviceAddress
                    if case .string(let a)? = frame["address"] { address = a }
                    let expected = sightings.compactMap { s -> String? in
                        guard case .array(let f) = s, f.count == 3, let us = Self.micros(f[0]),
                            let record = Self.int(f[1]), let rssi = Self.int(f[2])
                        else { return nil }
                        return "\(record) \(us) \(rssi)"
                    }
                    listed += expected.count
                    let key = "\(address) \(ad)"
                    #expect(decoded[key] ?? [] == expected, "\(path): \(key)")
                }
            }
            #expect(listed > 0 || devices.isEmpty, "\(path): the truth lists sightings")
        }
    }

    static func int(_ v: JSONValue) -> Int64? {
        switch v {
        case .number(let s): Int64(s)
        case .integer(let i): i
        default: nil
        }
    }

    static func micros(_ v: JSONValue) -> Int64? {
        switch v {
        case .number(let s): JSONNode.exactMicros(s)
        case .integer(let i): i * 1_000_000
        default: nil
        }
    }
}
