import Foundation
import NearbyCapture
import NearbyFormats
import NearbyJSON
import NearbyTestSupport
import Testing

@testable import NearbyDecode
@testable import NearbyDecodeSession

/// `decode --format table` writes a beacon as `TYPE key=value …`: its JSON object's members
/// but `type`, in key order, each value as JSON text (docs/decode-output.md). Frames of a
/// fixed shape are written straight in that form; these tests read the form back from the
/// frame's JSON object (parsed, then each value serialized) for every distinct frame of the
/// committed captures.
@Suite struct BeaconSummaryTests {
    static func expected(_ beacon: BeaconFrame) throws -> String {
        guard case .object(let members) = BeaconJSON.object(beacon) else { throw CocoaError(.coderInvalidValue) }
        let pairs = members.keys.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
            .filter { $0 != "type" }
            .map { " \($0)=\(members[$0]!.serialized)" }
        return beacon.typeName + pairs.joined()
    }

    static func written(_ beacon: BeaconFrame) -> String {
        var out = JSONWriter(capacity: 64)
        var scratch = JSONWriter(capacity: 64)
        DecodeTable.appendBeaconSummary(beacon, to: &out, scratch: &scratch)
        return String(decoding: out.bytes, as: UTF8.self)
    }

    @Test func everyFrameIsSummarizedAsItsJSONObjectReadsBack() throws {
        var frames = Set<BeaconFrame>()
        for folder in ["Captures/fixtures", "Captures/synthetic", "Captures/bumble"] {
            let root = RepositoryPaths.root + "/" + folder
            for name in try FileManager.default.contentsOfDirectory(atPath: root).sorted()
            where !name.hasSuffix(".json") {
                _ = try? CaptureDecoder.decode(
                    path: root + "/" + name, onAdvertisement: { frames.formUnion($0.beacons) }, onIssue: { _ in })
            }
        }
        // Every frame written straight (`BeaconJSON.writeRun`) and some that are not.
        let types = Set(frames.map(\.typeName))
        let straight = ["eddystone-uid", "eddystone-tlm", "eddystone-eid", "ibeacon", "altbeacon", "token-v1"]
        #expect(types.isSuperset(of: straight + ["eddystone-url", "eddystone-etlm"]), "\(types.sorted())")
        for frame in frames {
            #expect(Self.written(frame) == (try Self.expected(frame)))
        }
    }
}
