import BeaconDecoder
import NearbyConformance
import NearbyConformanceTesting
import Testing

/// The example decoder held to the project's frame vectors, in this process: every iBeacon and
/// Eddystone-UID vector, on the fields it gives, without fault locations.
@Suite struct BeaconDecoderConformanceTests {
    /// The decoder as the vectors see it: its beacons written as `decode` writes them.
    static let implementation = ImplementationUnderTest(
        name: "BeaconDecoder", version: "1.0", levels: [.frames],
        beaconFields: [
            .iBeacon: ["uuid", "major", "minor", "measuredPower"],
            .eddystoneUID: ["txPower", "namespace", "instance"],
        ],
        locatesFaults: false
    ) { request in
        guard case .frame(.adData(let bytes)) = request else { return .unsupported("AD data only") }
        let beacons = BeaconDecoder.beacons(in: bytes) ?? []
        return .frame(DecodedFrame(beacons: beacons.map(Self.reported)))
    }

    static func reported(_ beacon: BeaconDecoder.Beacon) -> Beacon {
        switch beacon {
        case .iBeacon(let uuid, let major, let minor, let power):
            let hex = Self.hex(uuid)
            let dashed = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { r in
                String(
                    hex[
                        hex.index(
                            hex.startIndex, offsetBy: r.lowerBound)..<hex.index(hex.startIndex, offsetBy: r.upperBound)]
                )
            }.joined(separator: "-")
            return Beacon(
                type: .iBeacon,
                fields: [
                    "uuid": .string(dashed), "major": .integer(Int64(major)), "minor": .integer(Int64(minor)),
                    "measuredPower": .integer(Int64(power)),
                ])
        case .eddystoneUID(let txPower, let namespace, let instance):
            return Beacon(
                type: .eddystoneUID,
                fields: [
                    "txPower": .integer(Int64(txPower)), "namespace": .string(hex(namespace)),
                    "instance": .string(hex(instance)),
                ])
        }
    }

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }

    @Test func passesEveryFrameVectorOfItsBeaconTypes() {
        let report = ConformanceVectors.bundled.validate(Self.implementation, levels: [.frames])
        report.recordIssues()
        #expect(report.count(.passed) > 100, "\(report)")
    }
}
