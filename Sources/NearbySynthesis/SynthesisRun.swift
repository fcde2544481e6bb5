import NearbyAudio
import NearbyBytes
import NearbyCapture
import NearbyJSON
import NearbyMessages
import NearbySystem

/// `nearby-conformance synthesize`: reads a scenario with a `world`, runs the `Synthesizer`
/// and writes `NAME.btsnoop` (H4, datalink 1002), `NAME-201.pcap`, `NAME-187.pcap`,
/// `NAME-256.pcap`, `NAME.flac` (or `.wav`) when the world has `audio`, and the ground truth
/// `NAME.truth.json` into a folder.
public struct SynthesisRun {
    /// The files a run writes, by role.
    public struct Files: Sendable {
        public var btsnoop: String
        public var pcap201: String
        public var pcap187: String
        public var pcap256: String
        public var truth: String
        /// The sound file, when the world has `audio`.
        public var audio: String?

        public init(directory: String, name: String, audio: World.Audio.Container? = nil) {
            let base = directory.hasSuffix("/") ? directory + name : directory + "/" + name
            btsnoop = base + ".btsnoop"
            pcap201 = base + "-201.pcap"
            pcap187 = base + "-187.pcap"
            pcap256 = base + "-256.pcap"
            truth = base + ".truth.json"
            self.audio = audio.map { base + "." + $0.rawValue }
        }

        public var all: [String] { [btsnoop, pcap201, pcap187, pcap256] + (audio.map { [$0] } ?? []) + [truth] }
    }

    /// A synthesis failure: the scenario (with path and reason) or an output file.
    public enum Failure: Error, CustomStringConvertible {
        case input(JSONInputError)
        case output(CaptureFileError)
        case audioOutput(AudioFileError)

        public var description: String {
            switch self {
            case .input(let e): e.description
            case .output(let e): e.description
            case .audioOutput(let e): e.description
            }
        }
    }

    public let world: World
    public let timeOriginMicros: Int64
    public let lostTimeoutMicros: Int64

    /// Reads `scenarioPath`: its `world`, its time origin (which must be `{"unixSeconds": N}`
    /// so that expected times can be written before anything runs) and its lost timeout.
    public init(scenarioPath: String) throws(Failure) {
        do throws(JSONInputError) {
            let root = try JSONFile.load(scenarioPath)
            let scenario = try Scenario.load(scenarioPath, root: root)
            do throws(JSONInputError) {
                guard case .object(let fields) = root.value, let w = fields["world"] else {
                    throw root.fail("the scenario has no \"world\" to synthesize")
                }
                guard case .unixMicros(let origin) = scenario.timeOrigin else {
                    throw root.fail(
                        "a synthesized scenario states its time origin: \"timeOrigin\": {\"unixSeconds\": N}")
                }
                world = try World(json: JSONNode(w, path: "$.world"))
                timeOriginMicros = origin
                lostTimeoutMicros = scenario.configuration.lostTimeoutMicros
            } catch {
                throw error.in(file: scenarioPath)
            }
        } catch {
            throw .input(error)
        }
    }

    /// Writes the captures and the ground truth; returns the counts.
    @discardableResult
    public func write(to files: Files) throws(Failure) -> Synthesizer.Counts {
        do {
            return try writeFiles(files)
        } catch let e as CaptureFileError {
            throw .output(e)
        } catch let e as AudioFileError {
            throw .audioOutput(e)
        } catch {
            throw .output(CaptureFileError(path: files.truth, code: .unwritable, reason: "\(error)"))
        }
    }

    private func writeFiles(_ files: Files) throws -> Synthesizer.Counts {
        var snoop = BtsnoopWriter(datalink: .hciUART)
        let p201 = try PcapWriter(path: files.pcap201, linkType: .bluetoothHCIH4WithPHDR)
        let p187 = try PcapWriter(path: files.pcap187, linkType: .bluetoothHCIH4)
        let p256 = try PcapWriter(path: files.pcap256, linkType: .bluetoothLELLWithPHDR)
        var truth = GroundTruth(world: world, lostTimeoutMicros: lostTimeoutMicros)
        var synthesizer = Synthesizer(world: world)
        synthesizer.run(
            record: { r in
                let t = timeOriginMicros + r.timeMicros
                switch r.view {
                case .hci:
                    snoop.append(
                        r.bytes, flags: r.sent ? BtsnoopWriter.Flags.sentCommand : BtsnoopWriter.Flags.receivedEvent,
                        timestampMicros: t)
                    p201.write([0, 0, 0, r.sent ? 0 : 1] + r.bytes, timestampMicros: t)
                    p187.write(r.bytes, timestampMicros: t)
                case .air:
                    p256.write(r.bytes, timestampMicros: t)
                }
            }, reception: { truth.add($0) })
        p201.close()
        p187.close()
        p256.close()
        try OutputFile.write(snoop.bytes, to: files.btsnoop)
        var written = [files.btsnoop, files.pcap201, files.pcap187, files.pcap256]
        if let audio = world.audio, let path = files.audio {
            let sound = AudioSynthesizer(world: world, audio: audio)
            let frames = sound.schedule()
            let writer = try SoundFileWriter(path: path, sampleRate: audio.sampleRate)
            try writer.write(sound.samples(frames))
            try writer.close()
            truth.audioFrames = frames
            written.append(path)
        }
        let names = written.map { $0.split(separator: "/").last.map(String.init) ?? $0 }
        let json = truth.json(counts: synthesizer.counts, timeOriginMicros: timeOriginMicros, files: names)
        try OutputFile.write(Array((json.serialized + "\n").utf8), to: files.truth)
        return synthesizer.counts
    }
}
