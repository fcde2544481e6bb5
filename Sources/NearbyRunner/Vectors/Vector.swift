import NearbyBytes
import NearbyJSON
import NearbyMessages
import NearbyReplay

/// One conformance vector (Vectors/README.md): an input, the expected result, the clauses of
/// docs/spec/ it tests, the classes of input it belongs to, where its expected result comes
/// from, its verdict, and a time tolerance.
public struct Vector: Sendable {
    /// The record counts a capture vector may give beside `read`, `decoded`, `ignored` and
    /// `malformed`: the damage skipped (docs/damaged-captures.md), compared only where given.
    public static let optionalRecordCounts = ["skippedBytes", "resynchronizations"]

    /// What a frame vector feeds the decoder.
    public enum FrameInput: Sendable {
        /// AD data of one advertisement.
        case adData([UInt8])
        /// One H4 packet (type byte first), as a controller sends it to the host.
        case h4([UInt8])
        /// One LE link-layer packet as LINKTYPE 251 stores it (access address, PDU, CRC).
        case linkLayer([UInt8])
    }

    public enum Expectation: Sendable {
        /// Frame: the beacon objects in decode order (each exactly as `decode` prints it), and
        /// optionally advertisement fields of the first advertisement (only those listed).
        case beacons([JSONValue], advertisement: [String: JSONValue])
        /// Frame: the first fault's `layer/code` and offset.
        case error(key: String, offset: Int)
        /// Capture: every beacon with its record number, and the record accounting.
        case capture(beacons: [JSONValue], records: [String: JSONValue])
        /// Scenario: the event sequence, each as `replay` prints it.
        case events([JSONValue])
        /// Audio: the token frames in order, each with `token`, `mode`, `start` and
        /// optionally `channel`.
        case audioFrames([JSONValue])
        /// Scenario: the scenario must be refused (docs/spec/engine.md V1) at this JSON path, rooted at
        /// the scenario (`$.events[0].subscribe.type`), with a reason containing this phrase.
        case refused(path: String, reason: String)
    }

    public enum Input: Sendable {
        case frame(FrameInput)
        case capture(path: String)
        case audio(path: String)
        case scenario(Scenario, captures: [String], audio: [ReplaySession.AudioFile])
        /// An inline scenario kept as written, to be read when the vector runs: for a vector
        /// that expects the scenario to be refused.
        case scenarioDocument(JSONValue)
    }

    public var id: String
    public var description: String
    /// The vector file and the JSON path of this vector in it.
    public var file: String
    public var path: String
    public var toleranceMicros: Int64
    /// Skip (rather than fail) when a referenced file is absent: for field captures kept
    /// outside the repository.
    public var skipWhenFilesAbsent: Bool
    public var input: Input
    /// The expected result; for an `acceptable` vector, one of the readings the specification
    /// allows (the others are `alternatives`).
    public var expectation: Expectation
    /// The other readings an `acceptable` vector allows, each a complete expectation; empty for
    /// `valid` and `invalid` vectors. A result matching any reading passes.
    public var alternatives: [Expectation]
    /// The ids of the docs/spec/ clauses the vector tests (at least one).
    public var clauses: [String]
    /// The classes of input it belongs to, named in Vectors/schema/flags.json (possibly none).
    public var flags: [String]
    public var source: Source
    public var verdict: Verdict

    /// Where a vector's expected result comes from. Never the reference's own output alone.
    public enum Source: String, Sendable, CaseIterable {
        /// An example printed in the source the clause cites.
        case specExample = "spec-example"
        /// Written by hand from the clause.
        case hand
        /// A generator's ground truth: what it encoded, never what decoding it gives.
        case synthesized
        /// Another implementation's output: TShark's dissector, a Python prototype, the plain
        /// engine model of the tests.
        case secondImplementation = "second-implementation"
        /// An independent truth file kept with a real capture.
        case field
    }

    /// The class of a vector's expected result (Wycheproof's `result`).
    public enum Verdict: String, Sendable, CaseIterable {
        /// Well-formed input; `expect` is its one reading.
        case valid
        /// Input the specification rejects: a frame's fault, a refused scenario, a capture
        /// with malformed records.
        case invalid
        /// The specification allows more than one reading: `expect` and `alternatives`.
        case acceptable
    }

    /// Every reading a result may match: `expectation`, then the alternatives.
    public var expectations: [Expectation] { [expectation] + alternatives }
    /// Where a scenario vector's scenario came from, for implementations under test, which
    /// receive it as JSON (docs/spec/interop.md).
    public var scenarioSource: ScenarioSource?

    public enum ScenarioSource: Sendable {
        case inline(JSONValue)
        /// A scenario file (its registry may be a file beside it).
        case file(String)
    }

    /// The four kinds of vector (Vectors/README.md), by what they feed the reference.
    public enum Kind: String, Sendable, CaseIterable {
        /// One advertisement's bytes → the decoder.
        case frame
        /// A capture file → the decoder.
        case capture
        /// A sound file → the audio decoder.
        case audio
        /// A scenario (with captures and sound files) → the engine, or its refusal.
        case scenario
    }

    public var kind: Kind {
        switch input {
        case .frame: .frame
        case .capture: .capture
        case .audio: .audio
        case .scenario, .scenarioDocument: .scenario
        }
    }

    /// Files the vector reads (resolved paths).
    public var referencedFiles: [String] {
        switch input {
        case .frame, .scenarioDocument: []
        case .capture(let p), .audio(let p): [p]
        case .scenario(_, let captures, let audio): captures + audio.map(\.path)
        }
    }
}
