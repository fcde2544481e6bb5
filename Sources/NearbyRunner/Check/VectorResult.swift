import NearbySystem

/// The verdict on one vector.
public struct VectorResult: Sendable, Equatable {
    public enum Status: String, Sendable {
        case pass, fail, error, skipped
    }

    public var id: String
    public var kind: String
    public var file: String
    public var status: Status
    /// One line: why it failed, errored or was skipped (empty when it passed).
    public var message: String
    /// Further lines: the divergence in context.
    public var details: [String]
    /// Wall-clock time the vector took to run (s), when measured: for reports (JUnit's
    /// `time`), not part of the verdict, so results compare equal whatever it is.
    public var seconds: Double?

    public init(id: String, kind: String, file: String, status: Status, message: String = "", details: [String] = []) {
        self.id = id
        self.kind = kind
        self.file = file
        self.status = status
        self.message = message
        self.details = details
    }

    public static func == (a: VectorResult, b: VectorResult) -> Bool {
        a.id == b.id && a.kind == b.kind && a.file == b.file && a.status == b.status && a.message == b.message
            && a.details == b.details
    }
}

extension VectorResult {
    /// The verdict on a vector whose files cannot be read (a capture, sound file or scenario
    /// it names): skipped when the vector allows it (`skipWhenFilesAbsent`, the field
    /// captures), an error otherwise; nil when every file is there.
    package static func missingFiles(of v: Vector) -> VectorResult? {
        let missing = v.referencedFiles.filter { !FileSystem.isAccessible($0, .read) }
        guard !missing.isEmpty else { return nil }
        return VectorResult(
            id: v.id, kind: v.kind.rawValue, file: v.file, status: v.skipWhenFilesAbsent ? .skipped : .error,
            message: (v.skipWhenFilesAbsent ? "skipped: absent: " : "missing file: ") + missing.joined(separator: ", "))
    }
}
