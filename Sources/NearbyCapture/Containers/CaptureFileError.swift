import NearbyBytes

/// A capture file that cannot be read, or written, at all: missing, empty, not a capture, or
/// with a broken file header (RECORDS-2). Damage inside a file is reported per record
/// instead (`DecodeError`).
public typealias CaptureFileError = PathFault<CaptureFileFault>

/// What kind of `CaptureFileError`, an open code space.
public struct CaptureFileFault: FaultCode {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The file cannot be opened, examined, read or copied (missing, a folder, no
    /// permission, a stream whose temporary copy failed).
    public static var unreadable: Self { Self(rawValue: "unreadable") }
    /// The file holds no byte.
    public static var empty: Self { Self(rawValue: "empty") }
    /// Neither pcap, pcapng, btsnoop nor hex text.
    public static var unknownFormat: Self { Self(rawValue: "unknown-format") }
    /// The file header is damaged or cut short.
    public static var badHeader: Self { Self(rawValue: "bad-header") }
    /// A well-formed header of a version or kind not read (btsnoop other than version 1).
    public static var unsupported: Self { Self(rawValue: "unsupported") }
    /// A capture being written cannot be created, written or closed.
    public static var unwritable: Self { Self(rawValue: "unwritable") }
}
