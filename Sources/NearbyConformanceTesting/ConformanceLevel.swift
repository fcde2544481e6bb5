import NearbyInterop
import NearbyRunner

/// What an implementation can be asked: one level per kind of vector (docs/spec/interop.md,
/// INTEROP-9).
public struct ConformanceLevel: RawRepresentable, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The level's name in the interop protocol.
    public let rawValue: String
    /// Makes a level from its name; an unknown name selects no vector.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The level's name.
    public var description: String { rawValue }

    /// Frame vectors: AD data, an H4 packet or a link-layer packet → beacons or the first fault.
    public static let frames = ConformanceLevel(rawValue: InteropLevel.frames.rawValue)
    /// Capture vectors: a capture file → every beacon with its record, and the record counts.
    public static let captures = ConformanceLevel(rawValue: InteropLevel.captures.rawValue)
    /// Audio vectors: a sound file → NUT v1 token frames.
    public static let audio = ConformanceLevel(rawValue: InteropLevel.audio.rawValue)
    /// Scenario vectors: a self-contained scenario → engine callbacks, or its refusal.
    public static let events = ConformanceLevel(rawValue: InteropLevel.events.rawValue)

    /// The four levels.
    public static let allCases: [ConformanceLevel] = [.frames, .captures, .audio, .events]

    var interop: InteropLevel { InteropLevel(rawValue: rawValue) }
}
