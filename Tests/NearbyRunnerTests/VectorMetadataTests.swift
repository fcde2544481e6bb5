import NearbyReplay
import NearbyRunner
import NearbyTestSupport
import Testing

/// What a vector says about itself (Vectors/README.md): the clauses it tests, its flags, the
/// source of its expected result and a verdict that agrees with it; and `acceptable` vectors,
/// which pass on any of their readings.
struct VectorMetadataTests {
    /// One frame vector on empty AD data (which holds no structure, so it decodes to no beacon
    /// and no fault: AD-1), with `fields` spliced in.
    static func load(_ fields: String) -> VectorSet {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let text =
            #"{"vectorFile": 1, "vectors": [{"id": "frame/m", "kind": "frame", "description": "d", "#
            + #""input": {"adData": ""}, "# + fields + "}]}"
        return VectorSet.load([dir.write(Array(text.utf8), to: "v.json")])
    }

    static let metadata = #""clauses": ["AD-1"], "flags": [], "source": "hand", "#

    static func loadError(_ fields: String) -> String {
        load(fields).errors.first.map { "\($0.location): \($0.reason)" } ?? "loaded"
    }

    @Test func aVectorNamesItsClausesFlagsSourceAndVerdict() {
        let set = Self.load(Self.metadata + #""verdict": "valid", "expect": {"beacons": []}"#)
        #expect(set.errors.isEmpty)
        let v = set.vectors[0]
        #expect(v.clauses == ["AD-1"] && v.flags.isEmpty && v.source == .hand && v.verdict == .valid)
        #expect(Self.loadError(#""verdict": "valid", "expect": {"beacons": []}"#).contains("\"clauses\""))
        #expect(
            Self.loadError(
                #""clauses": [], "flags": [], "source": "hand", "verdict": "valid", "expect": {"beacons": []}"#)
                == "$.vectors[0].clauses: name at least one clause of docs/spec/ the vector tests")
        #expect(
            Self.loadError(
                #""clauses": ["ad-1"], "flags": [], "source": "hand", "verdict": "valid", "expect": {"beacons": []}"#
            ).hasPrefix("$.vectors[0].clauses[0]: a clause id is"))
        #expect(
            Self.loadError(
                #""clauses": ["AD-1"], "flags": [], "source": "mine", "verdict": "valid", "expect": {"beacons": []}"#
            ).hasPrefix("$.vectors[0].source: \"mine\" is not one of"))
    }

    @Test func theVerdictAgreesWithTheExpectation() {
        let fault = #""expect": {"error": {"code": "ad/length-overrun", "offset": 0}}"#
        #expect(Self.loadError(Self.metadata + #""verdict": "invalid", "# + fault) == "loaded")
        #expect(
            Self.loadError(Self.metadata + #""verdict": "valid", "# + fault)
                == "$.vectors[0].verdict: the expected result is a fault, a refusal or malformed records: "
                + "the verdict is invalid")
        #expect(
            Self.loadError(Self.metadata + #""verdict": "invalid", "expect": {"beacons": []}"#)
                == "$.vectors[0].verdict: an invalid vector expects a fault, a refusal or malformed records")
        #expect(
            Self.loadError(Self.metadata + #""verdict": "acceptable", "expect": {"beacons": []}"#)
                == "$.vectors[0].verdict: an acceptable vector lists its other readings in \"alternatives\"")
        #expect(
            Self.loadError(
                Self.metadata + #""verdict": "valid", "alternatives": [{"beacons": []}], "#
                    + #""expect": {"beacons": []}"#)
                == "$.vectors[0].alternatives: only an acceptable vector has alternatives")
    }

    @Test func anAcceptableVectorPassesOnAnyOfItsReadingsAndFailsOnNone() {
        // Empty AD data decodes to no beacon (AD-1): the second reading holds.
        let either = Self.load(
            Self.metadata + #""verdict": "acceptable", "expect": {"error": {"code": "ad/length-overrun", "#
                + #""offset": 0}}, "alternatives": [{"beacons": []}]"#)
        let r = VectorRunner.run(either.vectors[0], audioFrames: AudioFrameCache())
        #expect(r.status == .pass && r.message == "matched acceptable reading 2 of 2")
        let neither = Self.load(
            Self.metadata + #""verdict": "acceptable", "expect": {"error": {"code": "ad/length-overrun", "#
                + #""offset": 0}}, "alternatives": [{"error": {"code": "ad/truncated", "offset": 0}}]"#)
        let f = VectorRunner.run(neither.vectors[0], audioFrames: AudioFrameCache())
        #expect(f.status == .fail)
        #expect(f.message == "expected ad/length-overrun at offset 0, but it decoded without a fault")
        #expect(f.details.last == "the vector's 1 other acceptable reading(s) do not match either")
    }
}
