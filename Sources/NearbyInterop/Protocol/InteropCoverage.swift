import NearbyJSON
import NearbyRunner

/// What an implementation says it reports (INTEROP-12 to INTEROP-17: `beacons` and `faults` in its
/// handshake): the beacon types it decodes, the fields it gives for each, and whether it
/// locates faults. Frame and capture comparisons are restricted to what it reports, so a
/// FAIL always means a wrong value, never a field the implementation does not represent;
/// what it leaves out is listed in the conformance matrix instead.
public struct InteropCoverage: Sendable, Equatable {
    /// Beacon type → the fields reported for it (`type`, and `record` in captures, are always
    /// compared). nil: every type with every field, as `decode` prints them.
    public var beaconFields: [String: Set<String>]?
    /// false: the implementation rejects malformed frames without saying where (no
    /// `error` replies); a vector expecting a fault then passes when no beacon is decoded.
    public var locatesFaults: Bool
    /// The advertisement fields given with an `advertisement` reply; nil: all the vector lists.
    public var advertisementFields: Set<String>?
    /// The record counts given with a `records` reply (`read`, `decoded`, `ignored`,
    /// `malformed`); nil: all four. A container reader gives only `read`.
    public var recordCounts: Set<String>?

    public static let everything = InteropCoverage(beaconFields: nil, locatesFaults: true, advertisementFields: nil)

    /// The record counts a `captures` reply may give (INTEROP-22, INTEROP-28).
    public static let allRecordCounts: Set<String> = Set(
        ["read", "decoded", "ignored", "malformed"] + Vector.optionalRecordCounts)

    public init(
        beaconFields: [String: Set<String>]?, locatesFaults: Bool, advertisementFields: Set<String>?,
        recordCounts: Set<String>? = nil
    ) {
        self.beaconFields = beaconFields
        self.locatesFaults = locatesFaults
        self.advertisementFields = advertisementFields
        self.recordCounts = recordCounts
    }

    /// Reads `beacons` (an object: type → array of field names), `advertisement` (an array
    /// of field names), `records` (an array of record count names) and `faults` (a boolean)
    /// from a handshake; a failure with the reason when they have the wrong shape.
    static func read(hello h: [String: JSONValue]) -> Result<InteropCoverage, InteropCoverage.ShapeError> {
        var c = InteropCoverage.everything
        switch h["faults"] {
        case nil: break
        case .bool(let b)?: c.locatesFaults = b
        default: return .failure(ShapeError(reason: "\"faults\" must be true or false"))
        }
        if let a = h["advertisement"] {
            guard let set = names(a) else {
                return .failure(ShapeError(reason: "\"advertisement\" must be an array of field names"))
            }
            c.advertisementFields = set
        }
        if let counts = h["records"] {
            guard let set = names(counts), !set.isEmpty, set.isSubset(of: allRecordCounts) else {
                return .failure(
                    ShapeError(
                        reason:
                            "\"records\" must be a non-empty array of read, decoded, ignored, malformed, skippedBytes, "
                            + "resynchronizations"))
            }
            c.recordCounts = set
        }
        guard let b = h["beacons"] else { return .success(c) }
        guard case .object(let types) = b else {
            return .failure(ShapeError(reason: "\"beacons\" must map each beacon type to the array of fields reported"))
        }
        var fields: [String: Set<String>] = [:]
        for (type, list) in types {
            guard let set = names(list) else {
                return .failure(ShapeError(reason: "\"beacons\".\(type) must be an array of field names"))
            }
            fields[type] = set
        }
        c.beaconFields = fields
        return .success(c)
    }

    struct ShapeError: Error { var reason: String }

    /// An array of strings as a set; nil for anything else.
    static func names(_ v: JSONValue) -> Set<String>? {
        guard case .array(let items) = v else { return nil }
        var set: Set<String> = []
        for item in items {
            guard case .string(let s) = item else { return nil }
            set.insert(s)
        }
        return set
    }

    /// Whether beacons of `type` are decoded.
    public func decodes(type: String) -> Bool {
        beaconFields.map { $0[type] != nil } ?? true
    }

    /// Whether a fault of `code` (`layer/code`) is within what the implementation decodes: a
    /// fault of a beacon layer (`eddystone`, `ibeacon`, `altbeacon`, `token`) only when it
    /// decodes a type of that family; faults of the AD, HCI and link layers always.
    public func covers(faultCode code: String) -> Bool {
        guard let fields = beaconFields else { return true }
        let layer = code.split(separator: "/").first.map(String.init) ?? code
        guard Self.beaconLayers.contains(layer) else { return true }
        return fields.keys.contains { $0 == layer || $0.hasPrefix(layer + "-") }
    }

    static let beaconLayers: Set<String> = ["eddystone", "ibeacon", "altbeacon", "token"]

    /// The beacons of types decoded, each cut to the fields reported (plus `type` and
    /// `record`).
    public func restrict(_ beacons: [JSONValue]) -> [JSONValue] {
        guard let fields = beaconFields else { return beacons }
        return beacons.compactMap { b in
            guard case .object(let o) = b, case .string(let type)? = o["type"] else { return b }
            guard let keep = fields[type] else { return nil }
            return .object(o.filter { keep.contains($0.key) || $0.key == "type" || $0.key == "record" })
        }
    }

    /// The record counts of `records` (an object) that the implementation gives; nil when
    /// `records` is nil.
    public func restrict(records: JSONValue?) -> JSONValue? {
        guard let records, let counts = recordCounts, case .object(let o) = records else { return records }
        return .object(o.filter { counts.contains($0.key) })
    }

    /// The types among `beacons` that are not decoded, sorted.
    func undecodedTypes(_ beacons: [JSONValue]) -> [String] {
        var out: Set<String> = []
        for case .object(let o) in beacons {
            if case .string(let t)? = o["type"], !decodes(type: t) { out.insert(t) }
        }
        return out.sorted()
    }
}
