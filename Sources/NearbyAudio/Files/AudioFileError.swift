import NearbyBytes

/// A sound file that cannot be read or written at all. Samples that cannot be decoded inside
/// a file that reads are reported per frame instead.
public typealias AudioFileError = PathFault<AudioFileFault>

/// What kind of `AudioFileError`, an open code space.
public struct AudioFileFault: FaultCode {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// libsndfile cannot open the file as sound (missing, not audio, a damaged header).
    public static var unreadable: Self { Self(rawValue: "unreadable") }
    /// A sound file of a shape not decoded: no channel, or a sample rate below 44.1 kHz.
    public static var unsupported: Self { Self(rawValue: "unsupported") }
    /// A sound file being written cannot be created, written or closed, or is asked for a
    /// format it cannot hold.
    public static var unwritable: Self { Self(rawValue: "unwritable") }
}
