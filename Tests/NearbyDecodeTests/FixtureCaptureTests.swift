import Foundation
import NearbyBytes
import NearbyCapture
import NearbyDecode
import NearbyDecodeSession
import NearbyTestSupport
import Testing

/// The project's own captures in every container and link type (Captures/fixtures),
/// checked against what was written into them.
@Suite struct FixtureCaptureTests {
    // Beacon objects as the Eddystone, iBeacon and AltBeacon pages of docs/spec state the
    // vectors' values.
    static let uid =
        #"{"instance":"000000000001","namespace":"8b0ca750095477cb3e77","reserved":"0000","txPower":-18,"#
        + #""type":"eddystone-uid"}"#
    static let iBeacon =
        #"{"major":1,"measuredPower":-59,"minor":2,"type":"ibeacon","uuid":"e2c56db5-dffb-48d2-b060-d0f5a71096e0"}"#
    static let url =
        #"{"encodedUrl":"6578616d706c6507","scheme":1,"txPower":10,"type":"eddystone-url","url":"https://"#
        + #"www.example.com"}"#
    static let tlm =
        #"{"advertisingCount":1000,"batteryMillivolts":3000,"temperatureCelsius":25.5,"type":"eddystone-tlm","#
        + #""uptimeSeconds":3600.0,"version":0}"#
    static let etlm =
        #"{"encryptedTlm":"d5d89979ae79ebee4e385fa5","mic":"0efb","salt":"f683","type":"eddystone-etlm","version":1}"#
    static let eid = #"{"eid":"4144413e45fefa58","txPower":-4,"type":"eddystone-eid"}"#
    static let altBeacon =
        #"{"beaconId":"2f234454cf6d4a0fadf2f4911ba9ffa600010002","major":1,"manufacturer":280,"measuredPower":-59,"#
        + #""minor":2,"reserved":9,"type":"altbeacon","uuid":"2f234454-cf6d-4a0f-adf2-f4911ba9ffa6"}"#
    static let tlmNothing =
        #"{"advertisingCount":0,"batteryMillivolts":null,"temperatureCelsius":null,"type":"eddystone-tlm","#
        + #""uptimeSeconds":0.0,"version":0}"#

    struct Line: Equatable, CustomStringConvertible {
        var record: Int, address: String, rssi: String, eventType: String, beacons: [String]
        var description: String { "#\(record) \(address) \(rssi) \(eventType) \(beacons)" }
    }

    /// The HCI story (FixtureCaptures.hciPackets): records 3, 4, 5, 7 and 10 carry beacons.
    static let hciLines = [
        Line(record: 3, address: "c0:ff:ee:00:00:01", rssi: "-60", eventType: "ADV_NONCONN_IND", beacons: [uid]),
        Line(record: 3, address: "00:11:22:33:44:55", rssi: "-72", eventType: "ADV_NONCONN_IND", beacons: [iBeacon]),
        Line(record: 4, address: "c0:ff:ee:00:00:03", rssi: "-50", eventType: "ADV_IND", beacons: [url]),
        Line(record: 4, address: "c0:ff:ee:00:00:03", rssi: "-51", eventType: "ADV_NONCONN_IND", beacons: [tlm]),
        Line(record: 4, address: "c0:ff:ee:00:00:03", rssi: "-52", eventType: "SCAN_RSP", beacons: [etlm]),
        Line(record: 5, address: "c0:ff:ee:00:00:02", rssi: "-55", eventType: "ADV_NONCONN_IND", beacons: [eid]),
        Line(record: 7, address: "c0:ff:ee:00:00:04", rssi: "-71", eventType: "EXT_ADV", beacons: [uid]),
        Line(record: 10, address: "00:00:00:00:11:18", rssi: "-65", eventType: "ADV_NONCONN_IND", beacons: [altBeacon]),
        Line(
            record: 10, address: "c0:ff:ee:00:00:06", rssi: "null", eventType: "ADV_NONCONN_IND",
            beacons: [tlmNothing]),
    ]

    static func lines(_ path: String) throws -> ([Line], [[String: Any]], DecodeAccounting) {
        var lines: [Line] = []
        var objects: [[String: Any]] = []
        let accounting = try CaptureDecoder.decode(
            path: path,
            onAdvertisement: { d in
                guard d.advertisement.hasADData else { return }
                let text = d.jsonObject(file: "F").serialized
                let o = try! JSONSerialization.jsonObject(with: Data(text.utf8)) as! [String: Any]
                objects.append(o)
                guard case .object(let j) = d.jsonObject(file: "F"), case .array(let beacons) = j["beacons"] else {
                    return
                }
                lines.append(
                    Line(
                        record: d.advertisement.record, address: d.advertisement.address.description,
                        rssi: j["rssi"]!.serialized, eventType: d.advertisement.eventTypeName,
                        beacons: beacons.map(\.serialized)))
            }, onIssue: { Issue.record("unexpected issue: \($0)") })
        return (lines, objects, accounting)
    }

    /// The fixture `name` (`FixtureCaptures`), written to a temporary folder and decoded.
    static func decodeFixture(_ name: String) throws -> ([Line], [[String: Any]], DecodeAccounting) {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        try FixtureCaptures.write(to: dir.path)
        return try lines(dir.file(name))
    }

    /// RECORDS-6, RECORDS-9 (one advertisement without data), HCI-EXT-8, HCI-EXT-21; the times of
    /// BTSNOOP-4 and PCAP-4, none in hex text (HEXTEXT-4).
    @Test("HCI fixtures decode to the HCI story", arguments: FixtureCaptures.hciFileNames)
    func hciFixturesDecode(_ name: String) throws {
        let (lines, objects, a) = try Self.decodeFixture(name)
        #expect(lines == Self.hciLines)
        #expect(a.recordsRead == 10 && a.decoded == 7 && a.malformed == 0 && a.balances)
        #expect(a.ignoredByReason == ["hci-command": 1, "hci-other-event": 1, "hci-acl-data": 1])
        #expect(a.advertisementsWithoutData == 1)
        let fragmented = objects[6]["extended"] as? [String: Any]
        #expect(fragmented?["fragments"] as? Int == 2)
        #expect(objects[6]["txPower"] as? Int == -8)
        if name.hasSuffix(".txt") {
            #expect(objects.allSatisfy { $0["time"] is NSNull })
        } else {
            #expect((objects[0]["time"] as? NSNumber)?.stringValue.hasPrefix("1700000000.32345") == true)
        }
    }

    @Test func advertisementsAConsumerKeepsKeepTheirOwnBeacons() throws {
        // CaptureDecoder lends one DecodedAdvertisement, rebuilt for each advertisement and
        // reusing its beacon array: a copy kept by the consumer must not see later ones.
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        try FixtureCaptures.write(to: dir.path)
        var kept: [DecodedAdvertisement] = []
        _ = try CaptureDecoder.decode(
            path: dir.file("hci-h4-1002.btsnoop"), onAdvertisement: { kept.append($0) },
            onIssue: { Issue.record("unexpected issue: \($0)") })
        let withBeacons = kept.filter { !$0.beacons.isEmpty }
        #expect(withBeacons.count == Self.hciLines.count)
        #expect(withBeacons.map { $0.beacons.map { BeaconJSON.object($0).serialized } } == Self.hciLines.map(\.beacons))
        for d in kept {
            #expect(d.beacons == DecodedAdvertisement(d.advertisement).beacons, "record \(d.advertisement.record)")
        }
    }

    @Test func aConsumerThatTakesEachAdvertisementAndLeavesAnotherChangesNothing() throws {
        // Lent, not copied: the consumer takes each one with `swap`, leaving in its place an
        // advertisement with data, a beacon and an error, which the next one must not keep.
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        try FixtureCaptures.write(to: dir.path)
        var left = DecodedAdvertisement(
            Advertisement(
                record: 99, timestampMicros: nil, source: .linkLayer, eventTypeRaw: 0,
                address: BluetoothAddress(rawValue: 0xFFFF_FFFF_FFFF), addressType: .random, rssiDBm: nil,
                data: InlineBytes(ReferenceVectors.iBeaconAdvert)))
        left.contents.errors = [DecodeError(.adStructure, .truncated, at: 0, "left by the consumer")]
        var taken: [DecodedAdvertisement] = []
        let a = try CaptureDecoder.decode(
            path: dir.file("hci-h4-1002.btsnoop"),
            onAdvertisement: { d in
                var mine = left
                swap(&mine, &d)
                taken.append(mine)
            }, onIssue: { Issue.record("unexpected issue: \($0)") })
        let withData = taken.filter(\.advertisement.hasADData)
        #expect(withData.map(\.advertisement.address.description) == Self.hciLines.map(\.address))
        #expect(withData.map(\.advertisement.record) == Self.hciLines.map(\.record))
        #expect(withData.map { $0.beacons.map { BeaconJSON.object($0).serialized } } == Self.hciLines.map(\.beacons))
        #expect(taken.allSatisfy { $0.contents.errors.isEmpty })
        #expect(a.recordsRead == 10 && a.decoded == 7 && a.malformed == 0 && a.balances)
        #expect(a.beaconsByType.values.reduce(0, +) == Self.hciLines.map(\.beacons.count).reduce(0, +))
    }

    static let airLines = [
        Line(record: 1, address: "c0:ff:ee:00:00:02", rssi: "", eventType: "ADV_NONCONN_IND", beacons: [eid]),
        Line(record: 2, address: "c0:ff:ee:00:00:01", rssi: "", eventType: "ADV_IND", beacons: [uid]),
        Line(record: 4, address: "00:11:22:33:44:55", rssi: "", eventType: "SCAN_RSP", beacons: [iBeacon]),
    ]

    @Test("link-layer fixtures decode to the air story", arguments: FixtureCaptures.airFileNames)
    func airFixturesDecode(_ name: String) throws {
        let (lines, objects, a) = try Self.decodeFixture(name)
        #expect(
            lines.map {
                Line(record: $0.record, address: $0.address, rssi: "", eventType: $0.eventType, beacons: $0.beacons)
            } == Self.airLines)
        #expect(a.recordsRead == 6 && a.decoded == 4 && a.malformed == 0 && a.balances)
        #expect(a.ignoredByReason == ["ll-scan-request": 1, "ll-data-channel": 1])
        let rssi = lines.map(\.rssi)
        let channels = objects.map { ($0["channel"] as? Int).map(String.init) ?? "null" }
        switch name {
        case "le-ll-251.pcap":
            #expect(rssi == ["null", "null", "null"] && channels == ["null", "null", "null"])
        default:
            #expect(rssi == ["-40", "-41", "-43"])
            #expect(channels == ["37", "38", "37"])
        }
    }

    @Test func theBundledCapturesAreWhatTheFixtureBuilderWrites() throws {
        let bundled = RepositoryPaths.root + "/Captures/fixtures"
        if ProcessInfo.processInfo.environment["NEARBY_WRITE_CAPTURES"] == "1" {
            try FileManager.default.createDirectory(atPath: bundled, withIntermediateDirectories: true)
            try FixtureCaptures.write(to: bundled)
        }
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let names = try FixtureCaptures.write(to: dir.path)
        #expect(names.count == 11)
        for name in names {
            let fresh = try Data(contentsOf: URL(fileURLWithPath: dir.file(name)))
            let committed = try? Data(contentsOf: URL(fileURLWithPath: bundled + "/" + name))
            #expect(
                committed == fresh,
                Comment(
                    rawValue:
                        "Captures/fixtures/\(name) differs from the builder's output "
                        + "(NEARBY_WRITE_CAPTURES=1 swift test rewrites it)")
            )
        }
    }
}

@Suite struct DecodeOutputTests {
    /// The exact line for the first advertisement of the two-report btsnoop vector (HCI-ADV-7,
    /// BTSNOOP-4):
    /// keys sorted, time with six decimals, hex in lower case.
    @Test func aDecodeLineIsCompactSortedJSON() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.write(ReferenceVectors.twoReportBtsnoopFile, to: "v.btsnoop")
        var lines: [String] = []
        let outcome = DecodeSession().run(
            paths: [path], output: { lines.append($0) }, diagnostics: { Issue.record("\($0)") })
        #expect(outcome == .complete)
        #expect(lines.count == 2)
        // The AD data: Flags 0x06; the complete list of 16-bit UUIDs, FEAA (assigned to Google
        // LLC); Service Data on FEAA, the UID frame.
        let ad =
            #"{"ad":[{"adType":1,"flags":6,"type":"flags"},"#
            + #"{"adType":3,"names":["Google LLC"],"type":"uuid16-complete","uuids":["feaa"]},"#
            + #"{"adType":22,"data":"00ee8b0ca750095477cb3e770000000000010000","type":"service-data-16","#
            + #""uuid":"feaa","uuidName":"Google LLC"}],"#
        #expect(
            lines.first == ad + #""address":"c0:ff:ee:00:00:01","addressType":"random","beacons":["#
                + FixtureCaptureTests.uid
                + #"],"channel":null,"data":"0201060303aafe1716aafe00ee8b0ca750095477cb3e770000000000010000","#
                + #""eventType":"ADV_NONCONN_IND","eventTypeRaw":3,"file":""#
                + path
                + #"","record":1,"rssi":-60,"scanResponse":false,"source":"hci-adv-report","time":1700000000.123456,"#
                + #""txPower":null}"#
        )
    }

    @Test func beaconsOnlyAndSummary() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        try FixtureCaptures.write(to: dir.path)
        var lines: [String] = []
        let outcome = DecodeSession(beaconsOnly: true, summary: true).run(
            paths: [dir.file("le-ll-251.pcap"), dir.file("hci-h4-187.pcap")], output: { lines.append($0) },
            diagnostics: { _ in })
        #expect(outcome == .complete)
        #expect(lines.count == 3 + 9 + 1)
        let summary = try JSONSerialization.jsonObject(with: Data(lines.last!.utf8)) as! [String: Any]
        let total = (summary["summary"] as! [String: Any])["total"] as! [String: Any]
        #expect(total["records"] as! [String: Int] == ["read": 16, "decoded": 11, "ignored": 5, "malformed": 0])
        #expect(
            total["beacons"] as! [String: Int] == [
                "eddystone-uid": 3, "ibeacon": 2, "eddystone-eid": 2, "eddystone-url": 1,
                "eddystone-tlm": 2, "eddystone-etlm": 1, "altbeacon": 1,
            ])
    }

    @Test func theTableFormatNamesEachFile() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.write(ReferenceVectors.twoReportBtsnoopFile, to: "v.btsnoop")
        var lines: [String] = []
        _ = DecodeSession(summary: true, format: .table).run(
            paths: [path], output: { lines.append($0) }, diagnostics: { _ in })
        #expect(lines.first == "== " + path)
        #expect(
            lines[1].split(separator: "  ").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
                == ["record", "time", "address", "address type", "rssi", "event type", "content"])
        #expect(
            lines[2].contains("2023-11-14T22:13:20.123456Z") && lines[2].contains("c0:ff:ee:00:00:01")
                && lines[2].contains("eddystone-uid"))
        // Each label starts where its column does.
        #expect(lines[1].firstRange(of: "c0:ff")?.lowerBound == nil)
        #expect(
            lines[2].distance(from: lines[2].startIndex, to: lines[2].firstRange(of: "c0:ff:ee")!.lowerBound)
                == lines[1].distance(from: lines[1].startIndex, to: lines[1].firstRange(of: "address")!.lowerBound))
        #expect(lines.contains { $0.hasPrefix("records read 1: decoded 1") })
    }

    @Test func civilTimeMatchesKnownInstants() {
        #expect(CivilTime.iso8601(micros: 0) == "1970-01-01T00:00:00.000000Z")
        #expect(CivilTime.iso8601(micros: 951_782_400_000_001) == "2000-02-29T00:00:00.000001Z")
        #expect(CivilTime.iso8601(micros: -1) == "1969-12-31T23:59:59.999999Z")
        // 2^31 − 1 s, the end of 32-bit Unix time; 253,402,300,799 s, the last second of year 9999.
        #expect(CivilTime.iso8601(micros: 2_147_483_647_123_456) == "2038-01-19T03:14:07.123456Z")
        #expect(CivilTime.iso8601(micros: 253_402_300_799_987_654) == "9999-12-31T23:59:59.987654Z")
    }

    /// One cache carried across midnight, back again, to a five-digit year and before 1970:
    /// every text equals the instant's, as if written alone.
    @Test func civilTimeWithADateCacheIsTheSameTextAcrossDays() {
        let instants: [(Int64, String)] = [
            (951_782_399_999_999, "2000-02-28T23:59:59.999999Z"),
            (951_782_400_000_000, "2000-02-29T00:00:00.000000Z"),
            (951_782_400_500_000, "2000-02-29T00:00:00.500000Z"),
            (951_782_399_000_001, "2000-02-28T23:59:59.000001Z"),
            (253_402_300_800_000_000, "10000-01-01T00:00:00.000000Z"),
            (253_402_300_801_000_000, "10000-01-01T00:00:01.000000Z"),
            (-1, "1969-12-31T23:59:59.999999Z"),
        ]
        var cache = CivilTime.DateCache()
        for (micros, expected) in instants {
            let text = String(unsafeUninitializedCapacity: CivilTime.maximumLength) {
                CivilTime.write(micros: micros, to: $0.baseAddress!, cache: &cache)
            }
            #expect(text == expected)
        }
    }
}
