import NearbyRunner

/// What an implementation under test can be asked (INTEROP-9): one level per kind
/// of vector.
public struct InteropLevel: RawRepresentable, Hashable, Sendable, Comparable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }
    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }

    /// AD data, an H4 event or an LL PDU → decoded beacon fields or the first fault.
    public static let frames = InteropLevel(rawValue: "frames")
    /// A capture file → every beacon with its record (and optionally the accounting).
    public static let captures = InteropLevel(rawValue: "captures")
    /// A sound file → NUT v1 token frames.
    public static let audio = InteropLevel(rawValue: "audio")
    /// A scenario (app events and sightings) → callbacks, or the scenario's refusal.
    public static let events = InteropLevel(rawValue: "events")

    public static let all: [InteropLevel] = [.frames, .captures, .audio, .events]

    /// The level that runs a vector of `kind`.
    public init(_ kind: Vector.Kind) {
        switch kind {
        case .frame: self = .frames
        case .capture: self = .captures
        case .audio: self = .audio
        case .scenario: self = .events
        }
    }
}
