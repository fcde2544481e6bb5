/// Which NUT v1 waveform carried a token. An open code space (NUT-1).
public struct AudioMode: RawRepresentable, Hashable, Sendable, Comparable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }
    public static func < (a: AudioMode, b: AudioMode) -> Bool { a.rawValue < b.rawValue }

    /// NUT-I: DSSS on 18.5–20 kHz.
    public static let inaudible = AudioMode(rawValue: "inaudible")
    /// NUT-A: two-tone symbols on 1.2–4.2 kHz.
    public static let audible = AudioMode(rawValue: "audible")
}
