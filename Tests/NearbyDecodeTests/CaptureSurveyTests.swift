import Foundation
import NearbyDecode
import NearbyJSON
import NearbyTestSupport
import Testing

/// `survey` (docs/decode-output.md, "Survey") against the ground truth of a synthesized capture
/// (what the synthesizer sent and the scanner heard, per device and frame: time, record, RSSI)
/// and against decode's own lines.
@Suite struct CaptureSurveyTests {
    static let walk = RepositoryPaths.root + "/Captures/synthetic/office-walk/"

    static func survey(_ path: String) throws -> (entries: [SurveyEntry], lines: [[String: JSONValue]]) {
        var survey = CaptureSurvey()
        var lines: [[String: JSONValue]] = []
        _ = try CaptureDecoder.decode(
            path: path,
            onAdvertisement: { d in
                survey.add(d)
                if d.advertisement.hasADData, case .object(let o) = d.jsonObject(file: path) { lines.append(o) }
            }, onIssue: { _ in })
        return (survey.entries, lines)
    }

    // Every device of the truth file: its advertiser row counts each frame kind as often as the
    // scanner heard it, a beacon row per identifying frame with that count, and first, last
    // and RSSI as the truth's sightings give them.
    @Test func rowsMatchTheSynthesizersGroundTruth() throws {
        let truth =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: Self.walk + "office-walk.truth.json"))) as! [String: Any]
        let origin = truth["timeOriginUnixSeconds"] as! Double
        let (entries, _) = try Self.survey(Self.walk + "office-walk.btsnoop")
        for device in truth["devices"] as! [[String: Any]] {
            let address = device["address"] as! String
            let row = try #require(
                entries.first { $0.kind == .advertiser && $0.identity["address"] == .string(address) }, "\(address)")
            var sightings: [[Double]] = []
            for frame in device["frames"] as! [[String: Any]] {
                let kind = frame["kind"] as! String
                let hci = frame["hci"] as! [String: Any]
                let heard = hci["sightings"] as! [[Double]]
                sightings += heard
                #expect(row.frames[kind] == hci["count"] as? Int, "\(address) \(kind)")
                guard CaptureSurvey.identityFields[kind] != nil else { continue }
                let beacon = try #require(
                    entries.first { $0.kind == .beacon && $0.type == kind && $0.addresses.contains(address) })
                #expect(beacon.count == hci["count"] as? Int, "\(address) \(kind)")
                let micros = heard.map { Int64(($0[0] + origin) * 1e6 + 0.5) }
                #expect(beacon.firstMicros == micros.min() && beacon.lastMicros == micros.max(), "\(address) \(kind)")
                let rssis = heard.map { Int8($0[2]) }.sorted()
                #expect(beacon.rssi?.min == rssis.first && beacon.rssi?.max == rssis.last, "\(address) \(kind)")
            }
            #expect(row.count == sightings.count, "\(address)")
        }
    }

    // Every advertisement decode prints is counted once in its advertiser's row, and every
    // identified beacon once in its beacon's row.
    @Test func countsAreDecodesLines() throws {
        let (entries, lines) = try Self.survey(Self.walk + "office-walk-201.pcap")
        var perAddress: [String: Int] = [:]
        var perBeacon: [String: Int] = [:]
        for line in lines {
            guard case .string(let address)? = line["address"], case .string(let type)? = line["addressType"] else {
                continue
            }
            perAddress[address + "/" + type, default: 0] += 1
            guard case .array(let beacons)? = line["beacons"] else { continue }
            for case .object(let b) in beacons {
                guard case .string(let t)? = b["type"], let fields = CaptureSurvey.identityFields[t] else { continue }
                perBeacon[t + fields.map { (b[$0] ?? .null).serialized }.joined(separator: "|"), default: 0] += 1
            }
        }
        let advertisers = entries.filter { $0.kind == .advertiser }
        #expect(advertisers.count == perAddress.count)
        for row in advertisers {
            let key =
                (row.identity["address"].flatMap { if case .string(let s) = $0 { s } else { nil } } ?? "") + "/"
                + (row.identity["addressType"].flatMap { if case .string(let s) = $0 { s } else { nil } } ?? "")
            #expect(row.count == perAddress[key], "\(key)")
            #expect(row.frames.values.reduce(0, +) >= row.count)
        }
        let beacons = entries.filter { $0.kind == .beacon }
        #expect(beacons.count == perBeacon.count)
        for row in beacons {
            let key =
                row.type
                + CaptureSurvey.identityFields[row.type]!.map { (row.identity[$0] ?? .null).serialized }
                .joined(separator: "|")
            #expect(row.count == perBeacon[key], "\(key)")
        }
    }

    @Test func theIntervalIsTheTenthPercentileGapAndRSSITheMedian() {
        var entry = SurveyEntry(kind: .beacon, type: "ibeacon", identity: [:])
        // Heard at 0, 0.1, 0.3, 0.4, 0.6 s…: gaps of 100 ms and 200 ms (one missed).
        var t: Int64 = 0
        for (i, gap) in [100_000, 200_000, 100_000, 200_000, 100_000, 100_000, 300_000, 100_000, 100_000, 100_000]
            .enumerated()
        {
            entry.heard(micros: t, rssi: Int8(-60 - i))
            t += Int64(gap)
        }
        #expect(entry.intervalMicros == 100_000)
        #expect(entry.rssi?.min == -69 && entry.rssi?.max == -60 && entry.rssi?.median == -65)
        #expect(entry.count == 10)
    }
}
