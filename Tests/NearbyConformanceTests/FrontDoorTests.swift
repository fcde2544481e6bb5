import NearbyConformance
import NearbyTestSupport
import Testing

/// The umbrella product's values against the clauses' own examples: what an SDK team's test
/// sees when it decodes a frame, a capture, an EID or replays a scenario.
@Suite struct FrontDoorTests {
    // IBEACON-2, IBEACON-5 to IBEACON-7, IBEACON-9: the vector `frame/ibeacon/derived`.
    @Test func adDataOfAnIBeaconGivesItsFieldsAsDecodePrintsThem() {
        let d = Frame.adData(ReferenceVectors.iBeaconAdvert).decoded()
        #expect(d.fault == nil)
        #expect(d.advertisement == nil)
        #expect(
            d.beacons == [
                Beacon(
                    type: .iBeacon,
                    fields: [
                        "uuid": "e2c56db5-dffb-48d2-b060-d0f5a71096e0", "major": 1, "minor": 2, "measuredPower": -59,
                    ])
            ])
        #expect(d.beacons.first?["major"]?.integer == 1)
        #expect(d.beacons.first?["type"] == "ibeacon")
    }

    // EDDYSTONE-UID-8: a UID cut inside its instance is `eddystone/truncated` at the
    // instance's first byte, 23 (the vector `frame/eddystone/uid-truncated`).
    @Test func aTruncatedFrameGivesItsFaultLocatedToTheByte() {
        let d = Frame.adData(ReferenceVectors.bytes("0201060303aafe0f16aafe00ee8b0ca750095477cb3e7700")).decoded()
        #expect(d.beacons.isEmpty)
        #expect(d.fault?.code == "eddystone/truncated")
        #expect(d.fault?.offset == 23)
    }

    // HCI-ADV-7: an H4 LE Advertising Report carries the advertisement's fields as well.
    @Test func anH4ReportGivesTheAdvertisementsFields() {
        let event = FixtureEvents.legacyReportEvent([
            FixtureEvents.legacyReport(
                eventType: 0x03, addressType: 0x01, address: "c0:ff:ee:00:00:01",
                data: ReferenceVectors.iBeaconAdvert, rssi: -60)
        ])
        let d = Frame.h4(event).decoded()
        #expect(d.fault == nil)
        #expect(d.advertisement?["address"] == "c0:ff:ee:00:00:01")
        #expect(d.advertisement?["rssi"] == -60)
        #expect(d.beacons.map(\.type) == [.iBeacon])
    }

    // EID-CRYPTO-2, EID-CRYPTO-3: ephemeral_calc's published EIDs for its test key, K = 10.
    @Test func eidBeaconGivesThePublishedEIDs() throws {
        let beacon = try EIDBeacon(
            identityKey: ReferenceVectors.bytes("0102030405060708090a111213141516"), rotationExponent: 10)
        #expect(beacon.eid(atBeaconTime: 0) == ReferenceVectors.bytes("a9b76a71c5f89290"))
        #expect(beacon.eid(atBeaconTime: 2000) == ReferenceVectors.bytes("4144413e45fefa58"))
        #expect(beacon.periodStart(atBeaconTime: 2000) == 1024)
        #expect(beacon.periodSeconds == 1024)
    }

    // EID-CRYPTO-5, EID-CRYPTO-6.
    @Test func eidBeaconRefusesAKeyOfTheWrongLengthOrAnExponentOutOfRange() {
        #expect(throws: ConformanceError.self) { try EIDBeacon(identityKey: [1, 2, 3], rotationExponent: 10) }
        let error = #expect(throws: ConformanceError.self) {
            try EIDBeacon(identityKey: [UInt8](repeating: 0, count: 16), rotationExponent: 16)
        }
        #expect(error?.code == .invalidKey)
    }

    // RECORDS-1 and the fixture story of `capture/hci/hci-h4-1002-btsnoop`: 14 records, the
    // host's own command, a completion and ACL data ignored, a UID reassembled at record 7.
    @Test func aCaptureDecodesIntoOwnedValuesWithItsRecordCounts() throws {
        let vector = try VectorFile.vector("capture/hci/hci-h4-1002-btsnoop", in: "captures/fixtures.json")
        let capture = try CaptureFile(path: RepositoryPaths.root + "/Captures/fixtures/hci-h4-1002.btsnoop").decoded()
        let records = vector.expect["records"]!
        #expect(capture.records.read == records["read"]!.integer.map(Int.init))
        #expect(capture.records.malformed == records["malformed"]!.integer.map(Int.init))
        #expect(capture.records.ignored == records["ignored"]!.integer.map(Int.init))
        #expect(capture.records.read == capture.records.decoded + capture.records.ignored + capture.records.malformed)
        guard case .array(let expected)? = vector.expect["beacons"] else {
            Issue.record("the vector has no beacons")
            return
        }
        #expect(
            capture.beacons.map { FieldValue.object($0.fields.merging(["type": .string($0.type.rawValue)]) { $1 }) }
                == expected)
        #expect(capture.map(\.record) == capture.advertisements.map(\.record))
    }

    @Test func aMissingCaptureThrowsUnreadable() {
        let error = #expect(throws: ConformanceError.self) { try CaptureFile(path: "/nonexistent/x.pcap").decoded() }
        #expect(error?.code == .captureUnreadable)
        #expect(error?.file == "/nonexistent/x.pcap")
    }

    // The synthesized `bluetooth-off` scenario over its btsnoop capture: the events of its
    // ground truth (vector `scenario/synthetic/bluetooth-off/btsnoop`; ENGINE-F3, ENGINE-F4).
    @Test func aScenarioReplaysToTheEventsOfItsGroundTruth() throws {
        let vector = try VectorFile.vector(
            "scenario/synthetic/bluetooth-off/btsnoop", in: "synthetic/bluetooth-off.json")
        let root = RepositoryPaths.root + "/Captures/synthetic/"
        let replay = try ScenarioReplay(
            scenario: root + "bluetooth-off.scenario.json", captures: [root + "bluetooth-off/bluetooth-off.btsnoop"])
        let outcome = try replay.run()
        guard case .array(let expected)? = vector.expect["events"] else {
            Issue.record("the vector has no events")
            return
        }
        #expect(outcome.events.map { FieldValue.object($0.fields) } == expected)
        #expect(outcome.events.first?.kind == "found")
        #expect(outcome.events.first?.message?.namespace == "proj")
        #expect(outcome.issues.isEmpty)
    }

    @Test func aScenarioThatBreaksTheRulesIsRefusedWithItsPath() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.path + "/bad.scenario.json"
        try #"{"scenarioFile": 1, "events": [{"time": -1, "subscribe": {}}]}"#.write(
            toFile: path, atomically: true, encoding: .utf8)
        let error = #expect(throws: ConformanceError.self) { try ScenarioReplay(scenario: path) }
        #expect(error?.code == .scenarioRefused)
    }

    @Test func fieldValuesCompareNumbersByValueAndParseJSON() throws {
        #expect(FieldValue.integer(3) == FieldValue.number("3.0"))
        #expect(FieldValue.number("30.000000").jsonText == "30.000000")
        #expect(FieldValue.number("0.041878").number == 0.041878)
        #expect(
            try FieldValue(jsonText: #"{"b": [1, 2.5, null, true], "a": "x"}"#) == [
                "a": "x", "b": [1, 2.5, nil, true],
            ])
        #expect(FieldValue.object(["b": 1, "a": "x"]).jsonText == #"{"a":"x","b":1}"#)
        #expect(throws: ConformanceError.self) { try FieldValue(jsonText: "{") }
    }

    /// RFC 8259 §4: a member's name is followed by a colon; here the second line's seventh
    /// byte, `1`, stands where the colon should be.
    @Test func unparsableJSONIsReportedAtItsLineAndColumn() {
        #expect {
            try FieldValue(jsonText: "{\n  \"a\" 1}")
        } throws: { error in
            let reason = (error as? ConformanceError)?.reason ?? ""
            return reason.hasPrefix("line 2, column 7: ") && !reason.contains("Optional")
        }
    }
}
