import Foundation
import NearbyTestSupport

/// The frame vectors of Vectors/frames as capture records: AD data inside an HCI LE
/// Advertising Report (an LE Extended Advertising Report beyond 31 bytes), H4 packets as
/// they are, both for LINKTYPE 201 (with its 4-byte direction header); link-layer packets
/// for LINKTYPE 251.
struct FrameVectorCapture {
    struct Vector {
        var id: String
        var record: [UInt8]
        /// The expected beacons, or `error` (`code`, `offset`).
        var beacons: [[String: Any]]
        var error: [String: Any]?
    }

    var h4: [Vector] = []
    var linkLayer: [Vector] = []

    init(directory: String) throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".json") }
        for name in names.sorted() {
            let data = try Data(contentsOf: URL(fileURLWithPath: directory + "/" + name))
            let file = try JSONSerialization.jsonObject(with: data) as? [String: Any]
            for case let v as [String: Any] in file?["vectors"] as? [Any] ?? [] {
                let input = v["input"] as? [String: String] ?? [:]
                let expect = v["expect"] as? [String: Any] ?? [:]
                var vector = Vector(
                    id: v["id"] as? String ?? "?", record: [],
                    beacons: expect["beacons"] as? [[String: Any]] ?? [], error: expect["error"] as? [String: Any])
                if let ad = input["adData"].map(ReferenceVectors.bytes) {
                    vector.record = [0, 0, 0, 1] + Self.report(ad)
                    h4.append(vector)
                } else if let packet = input["h4"].map(ReferenceVectors.bytes) {
                    vector.record = [0, 0, 0, 1] + packet
                    h4.append(vector)
                } else if let packet = input["linkLayer"].map(ReferenceVectors.bytes) {
                    vector.record = packet
                    linkLayer.append(vector)
                }
            }
        }
    }

    static func report(_ ad: [UInt8]) -> [UInt8] {
        if ad.count <= 31 {
            return FixtureEvents.legacyReportEvent([
                FixtureEvents.legacyReport(
                    eventType: 0x03, addressType: 0x01, address: "c0:ff:ee:00:00:01", data: ad, rssi: -60)
            ])
        }
        return FixtureEvents.extendedReportEvent([
            FixtureEvents.extendedReport(
                eventType: 0x0010, addressType: 0x01, address: "c0:ff:ee:00:00:01", rssi: -60, data: ad)
        ])
    }
}
