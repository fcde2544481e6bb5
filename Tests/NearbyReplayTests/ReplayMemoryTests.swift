import Foundation
import NearbyCapture
import NearbyTestSupport
import Testing

/// `replay` streams too: 1.5 million sightings (84 MB as the replay holds them) raise its
/// peak memory by less than 32 MiB over a replay of one block of the same capture. The
/// sightings beyond the in-memory run are spilled to a temporary file and merged back. And
/// its events are printed as they come: 400,000 events of 200,000 distinct beacons raise the
/// peak by less than 32 MiB over 2,000 events.
@Suite struct ReplayMemoryTests {
    /// `count` distinct iBeacons (major and minor the beacon's number), each heard once, 1 ms apart.
    static func distinctBeacons(_ count: Int, t0: Int64) -> [UInt8] {
        var w = BtsnoopWriter(datalink: .hciUART)
        for i in 0..<count {
            var data = ReferenceVectors.iBeaconAdvert
            data.replaceSubrange(
                25..<29, with: [UInt8(i >> 24 & 0xFF), UInt8(i >> 16 & 0xFF), UInt8(i >> 8 & 0xFF), UInt8(i & 0xFF)])
            let report = FixtureEvents.legacyReport(
                eventType: 0x03, addressType: 0x00, address: "c0:ff:ee:00:00:01", data: data, rssi: -70)
            w.append(
                FixtureEvents.legacyReportEvent([report]), flags: BtsnoopWriter.Flags.receivedEvent,
                timestampMicros: t0 + Int64(i) * 1_000)
        }
        return w.bytes
    }

    @Test(.enabled(if: Python.has(["os"]), "python3 measures the peak memory"))
    func replayingManyEventsHoldsOnlyWhatIsFound() throws {
        _ = try #require(CommandLineTool.executable, "the nearby-conformance executable is built beside the tests")
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        // Lost 1 s after its one sighting: about a thousand beacons are found at any time.
        let scenario = dir.write(Array(#"{"scenario": 1, "lostTimeoutSeconds": 1}"#.utf8), to: "s.json")
        var peaks: [Double] = []
        for count in [1_000, 200_000] {
            let capture = dir.write(Self.distinctBeacons(count, t0: 1_700_000_000_000_000), to: "\(count).btsnoop")
            let (r, peak) = try CommandLineTool.runMeasuringPeakMemory([
                "replay", "--scenario", scenario, "--capture", capture, "--subscribe-all",
            ])
            #expect(r.status == 0, "\(r.stderr)")
            // Each beacon is found by subscribe-all/ibeacon (ENGINE-R2) and lost (ENGINE-F2).
            let lines = r.stdoutLines
            #expect(lines.count == 2 * count)
            #expect(lines.filter { $0.hasPrefix(#"{"event":"found""#) }.count == count)
            #expect(lines.first?.contains(#""subscription":"subscribe-all/ibeacon","time":0.000000}"#) == true)
            peaks.append(peak)
        }
        #expect(
            peaks[1] - peaks[0] < 32,
            "peak resident memory grew by \(peaks[1] - peaks[0]) MiB (\(peaks[0]) → \(peaks[1])) for 400,000 events")
    }

    @Test(.enabled(if: Python.has(["os"]), "python3 measures the peak memory"))
    func replayingMoreSightingsThanTheMemoryBudgetStaysWithinIt() throws {
        _ = try #require(CommandLineTool.executable, "the nearby-conformance executable is built beside the tests")
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let t0: Int64 = 1_700_000_000_000_000
        // A block: 64 events 1 ms apart, each with six reports of the same iBeacon (the most a
        // 255-byte event holds). Every block repeats the block's times, so the capture's clock
        // steps back at each block: the spilled runs must be merged, not just read in turn.
        let report = FixtureEvents.legacyReport(
            eventType: 0x03, addressType: 0x00, address: "c0:ff:ee:00:00:01",
            data: ReferenceVectors.iBeaconAdvert, rssi: -70)
        let event = FixtureEvents.legacyReportEvent(Array(repeating: report, count: 6))
        var block = BtsnoopWriter(datalink: .hciUART)
        let header = block.bytes.count
        for j in 0..<64 {
            block.append(event, flags: BtsnoopWriter.Flags.receivedEvent, timestampMicros: t0 + Int64(j) * 1_000)
        }
        let blocks = 1_500_000 / (64 * 6) + 1
        var file = block.bytes
        file.reserveCapacity(header + blocks * (block.bytes.count - header))
        for _ in 1..<blocks { file += block.bytes[header...] }
        let large = dir.write(file, to: "large.btsnoop")
        let small = dir.write(block.bytes, to: "small.btsnoop")

        // The iBeacon's id: UUID, major 1, minor 2 (ReferenceVectors.iBeaconAdvert).
        let id = Data(ReferenceVectors.iBeaconAdvert[9..<29]).base64EncodedString()
        let scenario = dir.write(
            Array(
                """
                {"scenario": 1,
                 "registry": {"registry": 1, "beacons": [{"advertisedId": {"type": "IBEACON", "id": "\(id)"},
                                                           "attachments": [{"namespacedType": "proj/desk",\
                 "data": "ZGVzaw=="}]}]},
                 "events": [{"time": 0, "subscribe": {"id": "desks", "deviceTypesToDiscover": ["bleBeacons"],\
                 "messageNamespace": "proj", "type": "desk"}}]}
                """.utf8), to: "s.json")
        // Found at the first sighting (time 0), lost 10 s after the last (63 ms), whatever
        // the number of blocks.
        let message = #""message":{"content":"ZGVzaw==","namespace":"proj","type":"desk"},"subscription":"desks""#
        let expected = [
            #"{"event":"found",\#(message),"time":0.000000}"#, #"{"event":"lost",\#(message),"time":10.063000}"#,
        ]

        let (baseline, baselinePeak) = try CommandLineTool.runMeasuringPeakMemory([
            "replay", "--scenario", scenario, "--capture", small,
        ])
        #expect(baseline.status == 0, "\(baseline.stderr)")
        #expect(baseline.stdoutLines == expected)
        let (replay, peak) = try CommandLineTool.runMeasuringPeakMemory([
            "replay", "--scenario", scenario, "--capture", large,
        ])
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(replay.stdoutLines == expected)
        let growth = peak - baselinePeak
        #expect(
            growth < 32,
            Comment(
                rawValue: "peak resident memory grew by \(growth) MiB (\(baselinePeak) → \(peak)) replaying "
                    + "\(blocks * 64 * 6) sightings")
        )
    }
}
