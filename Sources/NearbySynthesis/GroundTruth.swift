import NearbyBytes
import NearbyJSON
import NearbyText

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The ground truth of a synthesized capture (`NAME.truth.json`, docs/synthesis.md): for each
/// frame of each listed device, every record that carries it in the HCI captures and in the
/// air capture (time in the scenario's time base, record number, RSSI), and the runs those
/// sightings form. A gap of at least the scenario's lost timeout starts a new run, since a
/// sighting exactly one timeout after the last comes after that lost (ENGINE-F2, ENGINE-O2), so each
/// run is one found … lost for a subscription that matches the frame throughout.
/// Unrelated (clutter) devices are only counted.
public struct GroundTruth {
    public let world: World
    public let lostTimeoutMicros: Int64
    /// Sightings per device, frame and view: (time, record, rssi).
    private var sightings: [[[[(Int64, Int, Int8)]]]]
    private var clutter = [0, 0]
    /// The frames in the sound file, when the world has `audio`.
    public var audioFrames: [AudioSynthesizer.SentFrame] = []

    public init(world: World, lostTimeoutMicros: Int64) {
        self.world = world
        self.lostTimeoutMicros = lostTimeoutMicros
        sightings = world.devices.map { d in d.frames.map { _ in [[], []] } }
    }

    public mutating func add(_ r: Synthesizer.Reception) {
        let view = r.view == .hci ? 0 : 1
        if world.devices[r.device].isClutter {
            clutter[view] += 1
        } else {
            sightings[r.device][r.frame][view].append((r.timeMicros, r.record, r.rssi))
        }
    }

    /// Runs of sightings: (first, last, count).
    public func runs(_ list: [(Int64, Int, Int8)]) -> [(first: Int64, last: Int64, count: Int)] {
        var out: [(first: Int64, last: Int64, count: Int)] = []
        for (t, _, _) in list {
            if let last = out.last, t - last.last < lostTimeoutMicros {
                out[out.count - 1].last = t
                out[out.count - 1].count += 1
            } else {
                out.append((t, t, 1))
            }
        }
        return out
    }

    public func json(counts: Synthesizer.Counts, timeOriginMicros: Int64, files: [String]) -> JSONValue {
        func view(_ list: [(Int64, Int, Int8)]) -> JSONValue {
            .object([
                "count": .int(list.count),
                "runs": .array(
                    runs(list).map {
                        .object([
                            "first": .seconds(micros: $0.first), "last": .seconds(micros: $0.last),
                            "count": .int($0.count),
                        ])
                    }),
                "sightings": .array(list.map { .array([.seconds(micros: $0.0), .int($0.1), .int($0.2)]) }),
            ])
        }
        var devices: [JSONValue] = []
        for (i, d) in world.devices.enumerated() where !d.isClutter {
            let frames: [JSONValue] = d.frames.enumerated().map { (j, f) in
                var o: [String: JSONValue] = [
                    "kind": .string(f.kind), "adData": .string(Hex.encode(f.adData)),
                    "hci": view(sightings[i][j][0]), "air": view(sightings[i][j][1]),
                ]
                if let from = f.from { o["from"] = .seconds(micros: from) }
                if let until = f.until { o["until"] = .seconds(micros: until) }
                if let a = f.address { o["address"] = .string(a.description) }
                return .object(o)
            }
            devices.append(
                .object([
                    "name": .string(d.name), "address": .string(d.address.description),
                    "addressType": .string(d.addressType.description), "frames": .array(frames),
                ]))
        }
        var root: [String: JSONValue] = [
            "truth": .int(1),
            "description": .string(
                "Ground truth of a synthesized capture (docs/synthesis.md): per frame, every record carrying it as "
                    + "(time s, record, rssi dBm), in the HCI captures and the channel-37 air capture, and runs "
                    + "split at gaps >= the lost timeout."
            ),
            "seed": .integer(Int64(bitPattern: world.seed)),
            "timeOriginUnixSeconds": .seconds(micros: timeOriginMicros),
            "lostTimeoutSeconds": .seconds(micros: lostTimeoutMicros),
            "durationSeconds": .seconds(micros: world.durationMicros),
            "files": .array(files.map { .string($0) }),
            "hci": .object([
                "records": .int(counts.hciRecords), "advertisingEvents": .int(counts.advertisingEvents),
                "reports": .int(counts.reports), "advertisements": .int(counts.advertisements),
                "lostByScanner": .int(counts.lost), "clutterAdvertisements": .int(clutter[0]),
            ]),
            "air": .object(["records": .int(counts.airRecords), "clutterAdvertisements": .int(clutter[1])]),
            "transmissions": .int(counts.transmissions),
            "devices": .array(devices),
        ]
        if let audio = world.audio { root["audio"] = audioJSON(audio) }
        return .object(root)
    }

    /// Per broadcaster: its token, mode and level, and each frame's start and end (as the
    /// decoder reports them) and in-band SNR; these are the audio sightings at their ends.
    func audioJSON(_ audio: World.Audio) -> JSONValue {
        func fixed(_ x: Double, _ digits: Int) -> JSONValue { .number(PrintfText.format("%.\(digits)f", x)) }
        let broadcasters: [JSONValue] = audio.broadcasters.enumerated().map { b, caster in
            let frames = audioFrames.filter { $0.broadcaster == b }
            return .object([
                "name": .string(caster.name), "token": .string(Hex.encode(caster.token)),
                "mode": .string(caster.mode.rawValue),
                "levelDbfs": fixed(caster.levelDbfs, 1),
                "frames": .array(
                    frames.map {
                        .object(["start": fixed($0.start, 6), "end": fixed($0.end, 6), "snrDb": fixed($0.snrDb, 1)])
                    }),
            ])
        }
        return .object([
            "sampleRate": .int(audio.sampleRate), "noiseDbfs": fixed(audio.noiseDbfs, 1),
            "broadcasters": .array(broadcasters),
        ])
    }
}
