/// The four ways a message can be in evidence, each guarded by different state
/// (ENGINE-A2 to ENGINE-A4): a token over BLE, a token over audio, an Eddystone or AltBeacon
/// beacon, an iBeacon.
public enum EvidenceSource: Int, Hashable, Sendable, CaseIterable, BitwiseCopyable {
    case bleToken = 0
    case audioToken = 1
    case beacon = 2
    case iBeacon = 3

    /// The set holding just this source.
    @inlinable public var set: EvidenceSources { EvidenceSources(rawValue: 1 << UInt8(rawValue)) }
}

/// A set of evidence sources: the ones a subscription counts in the current state (rules
/// ENGINE-A1 to ENGINE-A5), or the ones a state change stops it counting (ENGINE-F3).
public struct EvidenceSources: OptionSet, Hashable, Sendable, BitwiseCopyable {
    public let rawValue: UInt8
    @inlinable public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let bleToken = EvidenceSource.bleToken.set
    public static let audioToken = EvidenceSource.audioToken.set
    public static let beacon = EvidenceSource.beacon.set
    public static let iBeacon = EvidenceSource.iBeacon.set

    @inlinable public func contains(_ source: EvidenceSource) -> Bool { rawValue & source.set.rawValue != 0 }
}

/// The time of the latest counted sighting of a message from each evidence source (µs;
/// `Int64.min` for none), indexed by source: the evidence ENGINE-F2 and ENGINE-F3 weigh.
public struct SourceTimes: Hashable, Sendable, BitwiseCopyable {
    /// Indexed by `EvidenceSource.rawValue`.
    private var times: (Int64, Int64, Int64, Int64) = (.min, .min, .min, .min)

    public init() {}

    public subscript(source: EvidenceSource) -> Int64 {
        @inline(__always) get {
            withUnsafeBytes(of: times) { $0.load(fromByteOffset: 8 * source.rawValue, as: Int64.self) }
        }
        @inline(__always) set {
            withUnsafeMutableBytes(of: &times) {
                $0.storeBytes(of: newValue, toByteOffset: 8 * source.rawValue, as: Int64.self)
            }
        }
    }

    /// Forgets every source not in `kept` (ENGINE-F3).
    public mutating func keep(only kept: EvidenceSources) {
        for source in EvidenceSource.allCases where !kept.contains(source) { self[source] = .min }
    }

    /// The latest sighting from any source; `Int64.min` when none is left.
    public var latest: Int64 { max(max(times.0, times.1), max(times.2, times.3)) }

    public static func == (a: SourceTimes, b: SourceTimes) -> Bool {
        a.times.0 == b.times.0 && a.times.1 == b.times.1 && a.times.2 == b.times.2 && a.times.3 == b.times.3
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(times.0)
        hasher.combine(times.1)
        hasher.combine(times.2)
        hasher.combine(times.3)
    }
}
