import NearbyConformance
import NearbyConformanceTesting
import Testing

/// What the reference decoder and engine give an SDK team's tests, from the packaged captures.
@Suite struct ReferenceDecodingTests {
    // An iBeacon as a whole advertisement: Flags, then Apple's manufacturer data.
    @Test func decodesTheFieldsOfAFrame() {
        let ad: [UInt8] = [
            0x02, 0x01, 0x06, 0x1A, 0xFF, 0x4C, 0x00, 0x02, 0x15, 0xE2, 0xC5, 0x6D, 0xB5, 0xDF, 0xFB, 0x48, 0xD2,
            0xB0, 0x60, 0xD0, 0xF5, 0xA7, 0x10, 0x96, 0xE0, 0x00, 0x01, 0x00, 0x02, 0xC5,
        ]
        let frame = Frame.adData(ad).decoded()
        #expect(frame.fault == nil)
        #expect(frame.beacons.first?.type == .iBeacon)
        #expect(frame.beacons.first?["uuid"] == "e2c56db5-dffb-48d2-b060-d0f5a71096e0")
        #expect(frame.beacons.first?["measuredPower"] == -59)
    }

    @Test func decodesACaptureIntoValues() throws {
        let capture = try CaptureFile(path: ConformanceVectors.bundledCaptures + "/fixtures/hci-h4-1002.btsnoop")
            .decoded()
        #expect(capture.records.read == capture.records.decoded + capture.records.ignored + capture.records.malformed)
        #expect(capture.contains { $0.beacons.contains { $0.type == .eddystoneUID } })
        #expect(capture.issues.isEmpty)
    }

    @Test func replaysAScenarioOverItsCapture() throws {
        let folder = ConformanceVectors.bundledCaptures + "/synthetic/"
        let replay = try ScenarioReplay(
            scenario: folder + "office-walk.scenario.json", captures: [folder + "office-walk/office-walk.btsnoop"])
        let events = try replay.run().events
        #expect(events.contains { $0.kind == "found" })
        #expect(events.map(\.time) == events.map(\.time).sorted())
    }
}
