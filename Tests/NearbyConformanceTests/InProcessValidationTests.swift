import Foundation
import NearbyConformance
import NearbyConformanceTesting
import NearbyTestSupport
import Testing

/// `validate` in-process (INTEROP-51): the bundled vectors, put to implementations that are
/// Swift values, judged as over the protocol.
@Suite struct InProcessValidationTests {
    /// The vectors the reference fails today (Vectors/known-failures.json), whose verdicts the
    /// in-process run must give as over the protocol.
    static let knownFailures: Set<String> = {
        guard
            let text = try? String(
                contentsOfFile: RepositoryPaths.root + "/Vectors/known-failures.json", encoding: .utf8),
            case .object(let root)? = try? FieldValue(jsonText: text), case .object(let vectors)? = root["vectors"]
        else { return [] }
        return Set(vectors.keys)
    }()

    // INTEROP-30, INTEROP-51: the reference, in-process, passes every bundled vector but its
    // known failures; each runs but those of the field captures, which are left out.
    @Test func theReferencePassesEveryBundledVectorButItsKnownFailures() throws {
        let report = ConformanceVectors.bundled.validate(.reference)
        let (vectors, unreadable) = ConformanceVectors.bundled.count
        let field = try VectorFile.ids(inFolder: "field")
        #expect(unreadable == 0)
        #expect(!field.isEmpty)
        #expect(report.verdicts.count == vectors - field.count)
        #expect(report.verdicts.allSatisfy { !field.contains($0.id) })
        #expect(Set(report.failures.map(\.id)) == Self.knownFailures)
        #expect(report.count(.skipped) == 0)
        #expect(report.count(.passed) == report.verdicts.count - Self.knownFailures.count)
    }

    // INTEROP-12, INTEROP-13, INTEROP-25: a frame decoder that gets one field wrong fails the
    // vectors that hold that field, each with its first divergence, and only those.
    @Test func aDecoderWithAWrongFieldFailsWithTheFirstDivergence() {
        let offByOne = ImplementationUnderTest(
            name: "off-by-one", version: "0", levels: [.frames],
            beaconFields: [.iBeacon: ["uuid", "major", "minor", "measuredPower"]]
        ) { request in
            guard case .frame(let frame) = request else { return .unsupported("frames only") }
            var d = frame.decoded()
            d.beacons = d.beacons.map { b in
                var b = b
                if b.type == .iBeacon, let major = b["major"]?.integer { b.fields["major"] = .integer(major + 1) }
                return b
            }
            return .frame(d)
        }
        let report = ConformanceVectors.bundled.validate(offByOne, filter: "ibeacon")
        #expect(!report.failures.isEmpty)
        let derived = report.verdicts.first { $0.id == "frame/ibeacon/derived" }
        #expect(derived?.status == .failed)
        // The vector's major is 1 (IBEACON-6); the decoder says 2.
        #expect(derived?.message == "beacons[0].major: expected 1, got 2")
        // A vector of another level or type is not judged against it.
        #expect(report.verdicts.allSatisfy { $0.kind == "frame" || $0.status == .skipped })
    }

    // INTEROP-9, INTEROP-19: levels not answered and `unsupported` replies are skipped.
    @Test func unsupportedRepliesAndLevelsAreSkippedNotFailed() {
        let nothing = ImplementationUnderTest(name: "nothing", version: "0", levels: [.frames]) { _ in
            .unsupported("not yet")
        }
        let report = ConformanceVectors.bundled.validate(nothing, filter: "frame/ibeacon/")
        #expect(!report.verdicts.isEmpty)
        #expect(report.verdicts.allSatisfy { $0.status == .skipped })
        let captures = ConformanceVectors.bundled.validate(nothing, levels: [.captures], filter: "capture/hci/")
        #expect(!captures.verdicts.isEmpty)
        #expect(captures.verdicts.allSatisfy { $0.message.contains("not supported by the implementation") })
    }

    // The bundle holds the repository's vectors and the files they name, byte for byte.
    @Test func theBundledVectorsAreTheRepositorys() throws {
        let bundled = ConformanceVectors.bundled.directory
        #expect(bundled != RepositoryPaths.root + "/Vectors")
        for file in ["frames/eddystone.json", "captures/fixtures.json", "known-failures.json"] {
            let a = try Data(contentsOf: URL(fileURLWithPath: bundled + "/" + file))
            let b = try Data(contentsOf: URL(fileURLWithPath: RepositoryPaths.root + "/Vectors/" + file))
            #expect(a == b, "\(file)")
        }
        #expect(FileManager.default.fileExists(atPath: bundled + "/../Captures/fixtures/hci-h4-1002.btsnoop"))
    }
}
