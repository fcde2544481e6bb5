import Foundation
import NearbyBytes
import NearbyDecode
import NearbyJSON
import NearbyTestSupport
import Testing

/// The field captures kept outside the repository (`RepositoryPaths.sharedCaptures`; real
/// phones and sniffers) against their ground truth: TShark's framing plus an independent
/// byte-level decode (`*.tshark.csv`, `*.analysis.json`; for the text files, the `decoded`
/// column).
/// Skipped when that folder is absent.
@Suite(.enabled(if: RepositoryPaths.sharedCaptures != nil, "../shared/captures is absent"))
struct FieldCaptureTests {
    static let binaryCaptures = [
        "whad-team__whad-client/capture.pcap",
        "Matheus-Garbelini__sweyntooth_bluetooth_low_energy_attacks/"
            + "noncompliance_stmicoelectronics_wb55_non_zero_ediv_rand_SC.pcapng",
        "Matheus-Garbelini__sweyntooth_bluetooth_low_energy_attacks/"
            + "noncomplicance_telink_respond_invalid_control_pdu.pcapng",
        "Syed-Bipul-Rahman__bluethooth_light_controll/btsnoop_hci__750fad9b.log",
        "Syed-Bipul-Rahman__bluethooth_light_controll/btsnoop_hci__a88c1218.log",
        "dandwhelan__fossibot-bluetooth/btsnoop_hci__957a3fba.log",
        "cnrd__yeelock/btsnoop_hci.log",
        "youhas97__bluetooth-mouse/btsnoop_hci.log",
        "whoisbe__pongbot-mcp/btsnoop_hci.log.last",
        "jpvargasdev__MachineSpiritTimetable/btsnoop_aaaa.log",
        "mauricelam__btsnoop-extcap/btsnoop_hci.log",
    ]

    /// One beacon as the decoder reports it, with the advertisement around it.
    struct Reported {
        var record: Int
        var advertisement: [String: JSONValue]
        var beacon: [String: JSONValue]
    }

    static func decode(_ path: String) throws -> (beacons: [Reported], accounting: DecodeAccounting, issues: [String]) {
        var beacons: [Reported] = []
        var issues: [String] = []
        let accounting = try CaptureDecoder.decode(
            path: path,
            onAdvertisement: { decoded in
                guard decoded.advertisement.hasADData, case .object(let o) = decoded.jsonObject(file: path),
                    case .array(let list) = o["beacons"]
                else { return }
                for case .object(let b) in list {
                    beacons.append(Reported(record: decoded.advertisement.record, advertisement: o, beacon: b))
                }
            }, onIssue: { issues.append($0.description) })
        return (beacons, accounting, issues)
    }

    @Test("beacons match the TShark ground truth row for row", arguments: binaryCaptures)
    func beaconsMatchGroundTruth(_ relative: String) throws {
        let path = RepositoryPaths.sharedCaptures! + "/" + relative
        let rows = try CSV.rows(path + ".tshark.csv")
        let (reported, _, _) = try Self.decode(path)
        // The ground truth decodes Eddystone and iBeacon; nothing else is in these captures.
        #expect(reported.allSatisfy { $0.beacon["type"] != .string("altbeacon") })
        #expect(
            reported.count == rows.count,
            "\(relative): \(reported.count) beacons reported, \(rows.count) in the ground truth")
        for (row, got) in zip(rows, reported) {
            let context = "\(relative) frame \(row["frame"]!)"
            #expect(got.record == Int(row["frame"]!)!, "\(context)")
            #expect(got.advertisement["address"] == .string(row["addr"]!), "\(context)")
            #expect(
                got.advertisement["addressType"] == .string(row["addr_type"]!.replacingOccurrences(of: "_", with: "-")),
                "\(context)")
            #expect(got.advertisement["rssi"] == (Int64(row["rssi"]!).map(JSONValue.integer) ?? .null), "\(context)")
            #expect(
                got.advertisement["eventTypeRaw"]
                    == .integer(Int64(row["pdu_or_event_type"]!.dropFirst(2), radix: 16)!), "\(context)")
            #expect(got.advertisement["time"] == .number(Self.microsecondText(row["time_epoch"]!)), "\(context)")
            if let rf = UInt8(row["channel"]!) {
                // LINKTYPE 256 records the RF channel, the Nordic sniffer the channel index.
                let index =
                    relative.hasSuffix("capture.pcap")
                    ? [UInt8](arrayLiteral: 37, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 38)[Int(rf)] : rf
                #expect(got.advertisement["channel"] == .integer(Int64(index)), "\(context)")
            }
            #expect(got.beacon == Self.expectedBeacon(row), "\(context)")
        }
    }

    @Test("every record is accounted for, as many as TShark counts", arguments: binaryCaptures)
    func recordsAreAccountedFor(_ relative: String) throws {
        let path = RepositoryPaths.sharedCaptures! + "/" + relative
        let analysis =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path + ".analysis.json")))
            as! [String: Any]
        let truth = analysis["gt"] as! [String: Any]
        let (_, accounting, _) = try Self.decode(path)
        #expect(accounting.balances)
        #expect(accounting.recordsRead == truth["packets"] as! Int)
        #expect(accounting.advertisements == truth["adv_with_data"] as! Int)
    }

    @Test("the hard negative: iBeacon bytes inside a host command are no sighting")
    func hardNegativeHasNoBeacons() throws {
        let path = RepositoryPaths.sharedCaptures! + "/mauricelam__btsnoop-extcap/btsnoop_hci.log"
        let raw = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(raw.range(of: Data([0x4c, 0x00, 0x02, 0x15])) != nil, "the capture holds the iBeacon prefix bytes")
        let (reported, accounting, _) = try Self.decode(path)
        #expect(reported.isEmpty)
        #expect(accounting.beaconsByType.isEmpty)
        #expect(accounting.ignoredByReason["hci-command", default: 0] > 0)
    }

    @Test(
        "hex text captures match their decoded column",
        arguments: ["estimote_eddystone_hcidump.txt", "bluez_hci_beacon_events.txt"])
    func textCapturesMatchGroundTruth(_ name: String) throws {
        let path = RepositoryPaths.sharedCaptures! + "/text/" + name
        var expected: [(record: Int, fields: [String: String])] = []
        var record = 0
        for line in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n") where !line.hasPrefix("#")
        {
            record += 1
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false)
            for entry in columns[3].split(separator: ";") {
                let words = entry.split(separator: " ")
                var fields = ["kind": String(words[0])]
                for w in words.dropFirst() {
                    let kv = w.split(separator: "=", maxSplits: 1)
                    fields[String(kv[0])] = String(kv[1])
                }
                expected.append((record, fields))
            }
        }
        let (reported, accounting, issues) = try Self.decode(path)
        #expect(issues.isEmpty)
        #expect(accounting.balances && accounting.malformed == 0)
        let inScope = reported.filter { $0.beacon["type"] != .string("altbeacon") }
        #expect(inScope.count == expected.count)
        for (want, got) in zip(expected, inScope) {
            let f = want.fields
            #expect(got.record == want.record)
            #expect(got.advertisement["address"] == .string(f["addr"]!))
            #expect(got.advertisement["rssi"] == .integer(Int64(f["rssi"]!)!))
            #expect(got.advertisement["time"] == .null)
            var beacon: [String: JSONValue] = [:]
            switch f["kind"]! {
            case "ibeacon":
                beacon = [
                    "type": .string("ibeacon"), "uuid": .string(f["uuid"]!), "major": .integer(Int64(f["major"]!)!),
                    "minor": .integer(Int64(f["minor"]!)!), "measuredPower": .integer(Int64(f["tx"]!)!),
                ]
            case "eddystone_uid":
                beacon = [
                    "type": .string("eddystone-uid"), "txPower": .integer(Int64(f["tx"]!)!),
                    "namespace": .string(f["ns"]!), "instance": .string(f["inst"]!),
                ]
                if case .string(let r)? = got.beacon["reserved"] { beacon["reserved"] = .string(r) }
            case "eddystone_url":
                beacon = [
                    "type": .string("eddystone-url"), "txPower": .integer(Int64(f["tx"]!)!), "url": .string(f["url"]!),
                ]
                for key in ["scheme", "encodedUrl"] { beacon[key] = got.beacon[key] }
            case "eddystone_tlm":
                beacon = [
                    "type": .string("eddystone-tlm"), "version": .integer(Int64(f["ver"]!)!),
                    "batteryMillivolts": .integer(Int64(f["vbatt_mv"]!)!),
                    "temperatureCelsius": .double(Double(f["temp_c"]!)!),
                    "advertisingCount": .integer(Int64(f["adv_cnt"]!)!),
                    "uptimeSeconds": .number(Self.tenths(f["sec_cnt_0.1s"]!)),
                ]
            default:
                Issue.record("unexpected ground truth kind \(f["kind"]!)")
            }
            #expect(got.beacon == beacon, "record \(want.record)")
        }
        // The BlueZ file's third event also holds an AltBeacon, outside the ground truth's
        // scope. By hand from its bytes (1B FF 44 01 BE AC <20-byte id> C1 55, RSSI B1):
        let alt = reported.filter { $0.beacon["type"] == .string("altbeacon") }
        if name == "bluez_hci_beacon_events.txt" {
            #expect(alt.count == 1)
            #expect(alt.first?.record == 3)
            #expect(alt.first?.advertisement["address"] == .string("0d:f3:ee:00:f8:ec"))
            #expect(alt.first?.advertisement["rssi"] == .integer(-79))
            #expect(
                alt.first?.beacon == [
                    "type": .string("altbeacon"), "manufacturer": .integer(0x0144),
                    "beaconId": .string("8deefbb9f7384297804096668bb4428113880f4f"),
                    "uuid": .string("8deefbb9-f738-4297-8040-96668bb44281"), "major": .integer(5000),
                    "minor": .integer(3919),
                    "measuredPower": .integer(-63), "reserved": .integer(0x55),
                ])
        } else {
            #expect(alt.isEmpty)
        }
    }

    /// `1765720824.940799000` → `1765720824.940799`.
    static func microsecondText(_ epoch: String) -> String {
        let parts = epoch.split(separator: ".")
        let fraction = (parts.count > 1 ? String(parts[1]) : "") + "000000"
        return String(parts[0]) + "." + fraction.prefix(6)
    }

    /// Tenths of a second as seconds with one decimal: `18874` → `1887.4`.
    static func tenths(_ text: String) -> String {
        let v = Int(text)!
        return "\(v / 10).\(v % 10)"
    }

    /// The beacon object a ground-truth row describes.
    static func expectedBeacon(_ row: [String: String]) -> [String: JSONValue] {
        func int(_ key: String) -> JSONValue { .integer(Int64(row[key]!)!) }
        if row["beacon"] == "ibeacon" {
            return [
                "type": .string("ibeacon"), "uuid": .string(row["ibeacon_uuid"]!), "major": int("ibeacon_major"),
                "minor": int("ibeacon_minor"), "measuredPower": int("tx_power"),
            ]
        }
        switch row["eddystone_frame"]! {
        case "tlm":
            let vbatt = Int64(row["tlm_vbatt_mv"]!)!
            return [
                "type": .string("eddystone-tlm"), "version": int("tlm_version"),
                "batteryMillivolts": vbatt == 0 ? .null : .integer(vbatt),
                "temperatureCelsius": row["tlm_temp_c"] == "n/a" ? .null : .double(Double(row["tlm_temp_c"]!)!),
                "advertisingCount": int("tlm_adv_cnt"), "uptimeSeconds": .number(tenths(row["tlm_sec_cnt"]!)),
            ]
        case "e2ee_eid":
            let flags = row["notes"]!.split(separator: ";").first { $0.hasPrefix("fmdn_hashed_flags=0x") }
            return [
                "type": .string("eddystone-e2ee-eid"), "eid": .string(row["eid"]!),
                "hashedFlags": flags.map { .integer(Int64($0.dropFirst("fmdn_hashed_flags=0x".count), radix: 16)!) }
                    ?? .null,
            ]
        case "eid":
            return ["type": .string("eddystone-eid"), "eid": .string(row["eid"]!), "txPower": int("tx_power")]
        case "uid":
            return [
                "type": .string("eddystone-uid"), "namespace": .string(row["namespace"]!),
                "instance": .string(row["instance"]!), "txPower": int("tx_power"),
            ]
        case let other:
            return ["unexpected-frame-in-ground-truth": .string(other)]
        }
    }
}
