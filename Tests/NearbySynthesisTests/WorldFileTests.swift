import Foundation
import NearbySynthesis
import NearbyTestSupport
import Testing

/// A scenario's world is read strictly: what it gets wrong is named by file, JSON path and
/// reason, and nothing is written.
struct WorldFileTests {
    static func scenario(world: String, origin: String = #"{"unixSeconds": 1767225600}"#) -> String {
        #"{"scenario": 1, "timeOrigin": \#(origin), "world": \#(world)}"#
    }

    static let device =
        #"{"name": "b", "address": "c0:00:00:00:00:01", "path": [[0, -60]], "frames": [{"eddystoneUid": "#
        + #""11111111111111111111010203040506"}]}"#

    static let cases: [(world: String, path: String, reason: String)] = [
        (#"{"seed": 1, "duration": 10, "devices": [], "colour": 1}"#, "$.world.colour", "colour"),
        (#"{"seed": 1, "duration": 0, "devices": []}"#, "$.world.duration", "out of range"),
        (#"{"seed": 1, "duration": 10, "devices": [\#(device), \#(device)]}"#, "$.world.devices[1]", "used twice"),
        (
            #"{"seed": 1, "duration": 10, "scanner": {"interval": 0.1, "window": 0.2}, "devices": []}"#,
            "$.world.scanner.window", "out of range"
        ),
        (
            #"{"seed": 1, "duration": 10, "scanner": {"fragmentBytes": 10}, "devices": []}"#,
            "$.world.scanner.fragmentBytes", "extended"
        ),
        (
            #"{"seed": 1, "duration": 10, "scanner": {"pauses": [[5, 3]]}, "devices": []}"#,
            "$.world.scanner.pauses[0]", "non-empty"
        ),
        (
            #"{"seed": 1, "duration": 10, "devices": [{"name": "b", "address": "nope", "path": [[0, -60]], "#
                + #""frames": [{"adData": ""}]}]}"#,
            "$.world.devices[0].address", "not an address"
        ),
        (
            #"{"seed": 1, "duration": 10, "devices": [{"name": "b", "address": "c0:00:00:00:00:01", "path": [[5, "#
                + #"-60], [1, -70]], "frames": [{"adData": ""}]}]}"#,
            "$.world.devices[0].path[1]", "time order"
        ),
        (
            #"{"seed": 1, "duration": 10, "devices": [{"name": "b", "address": "c0:00:00:00:00:01", "path": [[0, "#
                + #"-60]], "frames": []}]}"#,
            "$.world.devices[0].frames", "at least one frame"
        ),
        (
            #"{"seed": 1, "duration": 10, "devices": [{"name": "b", "address": "c0:00:00:00:00:01", "path": [[0, "#
                + #"-60]], "frames": [{"adData": "\#(String(repeating: "00", count: 32))"}]}]}"#,
            "$.world.devices[0].frames[0]", "at most 31"
        ),
        (
            #"{"seed": 1, "duration": 10, "devices": [{"name": "b", "address": "c0:00:00:00:00:01", "path": [[0, "#
                + #"-60]], "frames": [{"token": "0102"}]}]}"#,
            "$.world.devices[0].frames[0].token", "2 bytes"
        ),
        (
            #"{"seed": 1, "duration": 10, "devices": [{"name": "b", "address": "c0:00:00:00:00:01", "path": [[0, "#
                + #"-60]], "frames": [{"eddystoneUrl": "ftp://x"}]}]}"#,
            "$.world.devices[0].frames[0].eddystoneUrl", "not encodable"
        ),
        (
            #"{"seed": 1, "duration": 10, "devices": [{"name": "b", "address": "c0:00:00:00:00:01", "path": [[0, "#
                + #"-60]], "frames": [{"eddystoneTlm": {"batteryMillivolts": 1, "temperatureCelsius": 0.1, "#
                + #""advertisingCount": 1, "uptimeSeconds": 1}}]}]}"#,
            "$.world.devices[0].frames[0].eddystoneTlm.temperatureCelsius", "1/256"
        ),
        (
            #"{"seed": 1, "duration": 10, "devices": [{"name": "b", "address": "c0:00:00:00:00:01", "path": [[0, "#
                + #"-60]], "frames": [{"adData": "", "iBeacon": ""}]}]}"#,
            "$.world.devices[0].frames[0]", "exactly one"
        ),
        (
            #"{"seed": 1, "duration": 10, "devices": [], "audio": {"sampleRate": 8000, "broadcasters": []}}"#,
            "$.world.audio.sampleRate", "out of range"
        ),
        (
            #"{"seed": 1, "duration": 10, "devices": [], "audio": {"broadcasters": [{"name": "a", "token": "#
                + #""0102030405", "mode": "inaudible", "levelDbfs": -30}]}}"#,
            "$.world.audio.broadcasters[0].token", "5 bytes"
        ),
        (
            #"{"seed": 1, "duration": 10, "devices": [], "audio": {"broadcasters": [{"name": "a", "token": "#
                + #""010203040506", "mode": "ultrasonic", "levelDbfs": -30}]}}"#,
            "$.world.audio.broadcasters[0].mode", "inaudible"
        ),
        (
            #"{"seed": 1, "duration": 10, "devices": [], "audio": {"broadcasters": [{"name": "a", "token": "#
                + #""010203040506", "mode": "audible", "levelDbfs": 0}]}}"#,
            "$.world.audio.broadcasters[0].levelDbfs", "out of range"
        ),
        (
            #"{"seed": 1, "duration": 10, "devices": [], "audio": {"broadcasters": [{"name": "a", "token": "#
                + #""010203040506", "mode": "audible", "levelDbfs": -30, "from": 5, "until": 5}]}}"#,
            "$.world.audio.broadcasters[0].until", "after from"
        ),
        (
            #"{"seed": 1, "duration": 10, "devices": [], "audio": {"broadcasters": [{"name": "a", "token": "#
                + #""010203040506", "mode": "audible", "levelDbfs": -30, "until": 6}, {"name": "b", "token": "#
                + #""010203040507", "mode": "audible", "levelDbfs": -30, "from": 5}]}}"#,
            "$.world.audio.broadcasters[1]", "same time"
        ),
        (
            #"{"seed": 1, "duration": 10, "devices": [\#(device)], "audio": {"broadcasters": [{"name": "b", "#
                + #""token": "010203040506", "mode": "audible", "levelDbfs": -30}]}}"#,
            "$.world.audio.broadcasters[0].name", "used twice"
        ),
        (
            #"{"seed": 1, "duration": 10, "devices": [], "audio": {"broadcasters": [], "gain": 2}}"#,
            "$.world.audio.gain", "gain"
        ),
        (
            #"{"seed": 1, "duration": 10, "devices": [{"name": "b", "address": "c0:00:00:00:00:01", "path": [[0, "#
                + #"-60]], "frames": [{"eddystoneEid": {"identityKey": "0102", "exponent": 4, "clockAtStart": 0}}]}]}"#,
            "$.world.devices[0].frames[0].eddystoneEid.identityKey", "2 bytes"
        ),
        (
            #"{"seed": 1, "duration": 10, "devices": [{"name": "b", "address": "c0:00:00:00:00:01", "path": [[0, "#
                + #"-60]], "frames": [{"eddystoneEid": {"identityKey": "\#(String(repeating: "01", count: 16))", "#
                + #""exponent": 16, "clockAtStart": 0}}]}]}"#,
            "$.world.devices[0].frames[0].eddystoneEid.exponent", "out of range 0…15"
        ),
        (
            #"{"seed": 1, "duration": 10, "devices": [{"name": "b", "address": "c0:00:00:00:00:01", "path": [[0, "#
                + #"-60]], "frames": [{"eddystoneEid": {"identityKey": "\#(String(repeating: "01", count: 16))", "#
                + #""exponent": 4, "clockAtStart": 4294967296}}]}]}"#,
            "$.world.devices[0].frames[0].eddystoneEid.clockAtStart", "out of range"
        ),
        (
            #"{"seed": 1, "duration": 10, "devices": [{"name": "b", "address": "c0:00:00:00:00:01", "path": [[0, "#
                + #"-60]], "frames": [{"eddystoneEid": {"identityKey": "\#(String(repeating: "01", count: 16))", "#
                + #""exponent": 4, "clockAtStart": 0}, "token": "010203040506"}]}]}"#,
            "$.world.devices[0].frames[0].token", "unknown field \"token\""
        ),
    ]

    @Test(arguments: cases.indices)
    func aBadWorldIsRefusedWithItsPathAndReason(_ i: Int) {
        let c = Self.cases[i]
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let file = dir.write(Array(Self.scenario(world: c.world).utf8), to: "bad.scenario.json")
        #expect {
            try SynthesisRun(scenarioPath: file)
        } throws: { error in
            let text = "\(error)"
            return text.hasPrefix(file + ": " + c.path + ": ") && text.contains(c.reason)
        }
    }

    @Test func aScenarioWithoutAWorldOrWithoutAFixedOriginIsRefused() {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let none = dir.write(Array(#"{"scenario": 1, "timeOrigin": {"unixSeconds": 0}}"#.utf8), to: "a.json")
        let floating = dir.write(
            Array(
                Self.scenario(world: #"{"seed": 1, "duration": 1, "devices": []}"#, origin: #""firstAdvertisement""#)
                    .utf8), to: "b.json")
        #expect(throws: SynthesisRun.Failure.self) { try SynthesisRun(scenarioPath: none) }
        #expect(throws: SynthesisRun.Failure.self) { try SynthesisRun(scenarioPath: floating) }
        do {
            _ = try SynthesisRun(scenarioPath: floating)
        } catch {
            #expect("\(error)".contains("unixSeconds"))
        }
    }

    @Test func theCommandWritesFiveFilesAndFailsCleanlyOnBadInput() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let good = dir.write(
            Array(Self.scenario(world: #"{"seed": 1, "duration": 3, "devices": [\#(Self.device)]}"#).utf8),
            to: "walk.scenario.json")
        let ok = try CommandLineTool.run(["synthesize", good, "-o", dir.path])
        #expect(ok.status == 0, "\(ok.stderr)")
        for suffix in [".btsnoop", "-201.pcap", "-187.pcap", "-256.pcap", ".truth.json"] {
            #expect(FileManager.default.fileExists(atPath: dir.file("walk" + suffix)), "walk\(suffix)")
        }
        let decoded = try CommandLineTool.run(["decode", "--beacons-only", dir.file("walk-201.pcap")])
        #expect(decoded.stdoutLines.count >= 25, "3 s at 100–110 ms")
        let bad = dir.write(
            Array(Self.scenario(world: #"{"seed": -1, "duration": 3, "devices": []}"#).utf8), to: "bad.scenario.json")
        let failed = try CommandLineTool.run(["synthesize", bad, "-o", dir.path])
        #expect(failed.status == 1)
        #expect(failed.stderr.contains("bad.scenario.json: $.world.seed: "))
        #expect(!FileManager.default.fileExists(atPath: dir.file("bad.btsnoop")))
    }
}
