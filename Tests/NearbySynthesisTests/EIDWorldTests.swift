import NearbyBytes
import NearbyCapture
import NearbySynthesis
import NearbyTestSupport
import Testing

/// An `eddystoneEid` frame of a world becomes one EID frame per rotation period of the
/// beacon's clock (docs/synthesis.md, "EID beacons"); periods and addresses worked out by hand.
struct EIDWorldTests {
    static func world(_ eid: String, duration: Int = 40) throws -> [NearbySynthesis.World.Frame] {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let text =
            #"{"scenario": 1, "timeOrigin": {"unixSeconds": 1767225600}, "world": {"seed": 1, "duration": "#
            + #"\#(duration), "devices": [{"name": "b", "address": "c0:00:00:00:00:01", "path": [[0, -60]], "#
            + #""frames": [\#(eid)]}]}}"#
        let file = dir.write(Array(text.utf8), to: "eid.scenario.json")
        return try SynthesisRun(scenarioPath: file).world.devices[0].frames
    }

    @Test func oneFramePerRotationPeriodOfTheBeaconsClock() throws {
        // K = 4 (16 s), the clock reads 10 at 0 s: periods 0–15 (0–6 s), 16–31 (6–22 s),
        // 32–47 (22–38 s), 48–63 (38 s to the end at 40 s).
        let frames = try Self.world(
            #"{"eddystoneEid": {"identityKey": "0102030405060708090a111213141516", "exponent": 4, "clockAtStart": 10}}"#
        )
        #expect(frames.map(\.kind) == Array(repeating: "eddystone-eid", count: 4))
        #expect(frames.map(\.from) == [0, 6_000_000, 22_000_000, 38_000_000])
        #expect(frames.map(\.until) == [6_000_000, 22_000_000, 38_000_000, 40_000_000])
        // Each carries its period's EID and comes from an address made of it (top bits 00).
        let eids = frames.map { Hex.encode($0.adData.suffix(8)) }
        #expect(Set(eids).count == 4)
        for f in frames {
            let eid = Array(f.adData.suffix(8))
            #expect(f.address?.rawValue == eid[0..<6].reduce(UInt64(0)) { $0 << 8 | UInt64($1) } & 0x3FFF_FFFF_FFFF)
        }
    }

    @Test func aFastClockShortensThePeriodsAndETLMRidesBesideEachEID() throws {
        // 1000 ppm fast (the limit): the clock reaches 16 at 16 s / 1.001 = 15.984016 s
        // (rounded up to the microsecond).
        let frames = try Self.world(
            #"{"eddystoneEid": {"identityKey": "0102030405060708090a111213141516", "exponent": 4, "clockAtStart": "#
                + #"0, "clockPpm": 1000, "rotateAddress": false, "etlm": {"batteryMillivolts": 3000, "#
                + #""temperatureCelsius": 20, "advertisingCount": 0, "uptimeSeconds": 0}}}"#,
            duration: 20)
        #expect(frames.map(\.kind) == ["eddystone-eid", "eddystone-etlm", "eddystone-eid", "eddystone-etlm"])
        #expect(frames[2].from == 15_984_016)
        #expect(frames.allSatisfy { $0.address == nil })
        #expect(frames[1].adData.count == 3 + 4 + 4 + 18, "flags, UUID list, service data header, an 18-byte eTLM")
    }
}
