import Foundation
import NearbyInterop
import NearbyRunner

/// A folder of conformance vectors (Vectors/README.md gives their format): the ones this
/// package ships as resources, or any other.
///
/// ```swift
/// @Test func myDecoderConforms() {
///     ConformanceVectors.bundled.validate(mine, levels: [.frames]).recordIssues()
/// }
/// ```
public struct ConformanceVectors: Sendable {
    /// The folder's absolute path.
    public var directory: String

    /// The vectors of a folder (its `*.json` files, recursively; vector files name their
    /// captures and sound files relative to themselves).
    public init(directory: String) {
        self.directory = directory
    }

    /// The vectors this package ships, with the captures and sound files they name, copied
    /// into the package's resource bundle at build time: the same as `Vectors/` of the
    /// repository. The vectors of field captures kept outside the repository (`Vectors/field/`)
    /// are left out by ``validate(_:levels:filter:)``, so a run gives the same verdicts on
    /// every machine.
    public static var bundled: ConformanceVectors {
        ConformanceVectors(directory: Bundle.module.bundleURL.appendingPathComponent("Vectors").path)
    }

    /// The folder of the captures and sound files the bundled vectors name (the repository's
    /// `Captures/`), to decode or replay in a test: `bundledCaptures + "/fixtures/hci-h4-1002.btsnoop"`.
    public static var bundledCaptures: String {
        Bundle.module.bundleURL.appendingPathComponent("Captures").path
    }

    /// How many vectors the folder holds, and the files that could not be read as vectors.
    public var count: (vectors: Int, unreadableFiles: Int) {
        let set = VectorSet.load([directory])
        return (set.vectors.count, set.errors.count)
    }

    /// Holds `implementation` to the vectors of `levels` (nil: every level it answers) whose
    /// id contains `filter` (nil: all), one at a time in id order, in this process. Vectors
    /// whose files may be absent (the field captures') are left out. Each
    /// vector becomes a ``ConformanceRequest``; the ``ConformanceReply`` is judged as `check`
    /// judges the reference (docs/spec/interop.md, INTEROP-25 to INTEROP-29 and INTEROP-51).
    public func validate(
        _ implementation: ImplementationUnderTest, levels: Set<ConformanceLevel>? = nil, filter: String? = nil
    ) -> ValidationReport {
        let set = VectorSet.load([directory]).selecting(filter: filter, shard: nil)
        let run = InProcessValidation(
            implementation: implementation.session, levels: levels.map { Set($0.map(\.interop)) })
        let results = run.run(set) { fields in
            guard let request = ConformanceRequest(fields: fields) else {
                return ["unsupported": .string("internal: the request has no value form")]
            }
            return implementation.answer(request).json
        }
        return ValidationReport(
            implementation: "\(implementation.name) \(implementation.version)",
            verdicts: results.map(VectorVerdict.init))
    }
}
