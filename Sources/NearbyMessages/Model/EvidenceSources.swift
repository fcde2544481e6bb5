/// The four ways a message can be in evidence, each guarded by different state
/// (docs/semantics.md A2–A4): a token over BLE, a token over audio, an Eddystone or AltBeacon
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
/// A1–A5), or the ones a state change stops it counting (rule F3).
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
/// `Int64.min` for none), indexed by source: the evidence rules F2 and F3 weigh.
public struct SourceTimes: Hashable, Sendable, BitwiseCopyable {
    private var bleToken = Int64.min, audioToken = Int64.min, beacon = Int64.min, iBeacon = Int64.min

    public init() {}

    public subscript(source: EvidenceSource) -> Int64 {
        @inline(__always) get {
            switch source {
            case .bleToken: bleToken
            case .audioToken: audioToken
            case .beacon: beacon
            case .iBeacon: iBeacon
            }
        }
        @inline(__always) set {
            switch source {
            case .bleToken: bleToken = newValue
            case .audioToken: audioToken = newValue
            case .beacon: beacon = newValue
            case .iBeacon: iBeacon = newValue
            }
        }
    }

    /// Forgets every source not in `kept` (rule F3).
    public mutating func keep(only kept: EvidenceSources) {
        for source in EvidenceSource.allCases where !kept.contains(source) { self[source] = .min }
    }

    /// The latest sighting from any source; `Int64.min` when none is left.
    public var latest: Int64 { max(max(bleToken, audioToken), max(beacon, iBeacon)) }
}
