import NearbyConformance
import NearbyInterop
import NearbyJSON
import NearbyRunner

/// An implementation to hold to the vectors in-process: what its handshake would say about it
/// (docs/spec/interop.md §2) and a function that answers each request.
///
/// ```swift
/// let mine = ImplementationUnderTest(
///     name: "my-decoder", version: "1.0", levels: [.frames],
///     beaconFields: [.iBeacon: ["uuid", "major", "minor", "measuredPower"]]
/// ) { request in
///     guard case .frame(.adData(let bytes)) = request else { return .unsupported("AD data only") }
///     return .frame(DecodedFrame(beacons: MyDecoder.beacons(in: bytes)))
/// }
/// ```
public struct ImplementationUnderTest: Sendable {
    /// What is judged: the reports name it.
    public var name: String
    /// Its version, as the reports give it.
    public var version: String
    /// The levels it answers; vectors of other levels are skipped (INTEROP-9).
    public var levels: Set<ConformanceLevel>
    /// The beacon types it decodes and the fields it gives for each (`type`, and `record`
    /// in captures, are always compared); nil: every type, every field, as `decode` prints
    /// them (INTEROP-12, INTEROP-13).
    public var beaconFields: [BeaconType: Set<String>]?
    /// The advertisement fields it gives with a frame answer; nil: all the vector lists
    /// (INTEROP-14).
    public var advertisementFields: Set<String>?
    /// The record counts it gives with a capture answer (`read`, `decoded`, `ignored`,
    /// `malformed`, `skippedBytes`, `resynchronizations`); nil: all (INTEROP-15).
    public var recordCounts: Set<String>?
    /// false: it rejects malformed frames without locating the fault, so a vector expecting a
    /// fault passes when no beacon is decoded (INTEROP-16).
    public var locatesFaults: Bool
    /// Answers one request. Called once per vector, one at a time, in vector id order.
    public var answer: @Sendable (ConformanceRequest) -> ConformanceReply

    /// Describes an implementation and the function that answers for it.
    public init(
        name: String, version: String, levels: Set<ConformanceLevel>,
        beaconFields: [BeaconType: Set<String>]? = nil, advertisementFields: Set<String>? = nil,
        recordCounts: Set<String>? = nil, locatesFaults: Bool = true,
        answer: @escaping @Sendable (ConformanceRequest) -> ConformanceReply
    ) {
        self.name = name
        self.version = version
        self.levels = levels
        self.beaconFields = beaconFields
        self.advertisementFields = advertisementFields
        self.recordCounts = recordCounts
        self.locatesFaults = locatesFaults
        self.answer = answer
    }

    /// The project's own decoder and engine, answering every level exactly as
    /// `nearby-conformance adapter` does over the protocol (INTEROP-30): every vector passes.
    public static let reference = ImplementationUnderTest(
        name: ReferenceAdapter.name, version: ReferenceAdapter.version, levels: Set(ConformanceLevel.allCases)
    ) { request in
        let reply = ReferenceAdapter.answer(request.json)
        guard case .object(let fields) = reply else { return .unsupported("internal: not an object") }
        return ConformanceReply(fields: fields)
    }

    var session: ValidateSession.Implementation {
        ValidateSession.Implementation(
            name: name, version: version, levels: levels.map(\.interop).sorted(),
            coverage: InteropCoverage(
                beaconFields: beaconFields.map {
                    Dictionary(uniqueKeysWithValues: $0.map { ($0.key.rawValue, $0.value) })
                },
                locatesFaults: locatesFaults, advertisementFields: advertisementFields, recordCounts: recordCounts))
    }
}
