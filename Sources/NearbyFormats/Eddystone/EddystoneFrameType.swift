/// Eddystone frame types: the first byte of the Eddystone service data (EDDYSTONE-FRAME-8).
/// The high nibble is the type, the low nibble is reserved and must be 0, so a byte with a
/// non-zero low nibble is unknown (EDDYSTONE-FRAME-10). An open code space.
public struct EddystoneFrameType: RawRepresentable, Hashable, Sendable {
    /// The frame type byte, as sent: offset 0 of the service data.
    public let rawValue: UInt8
    /// The frame type `rawValue`, defined or not.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Eddystone-UID (0x00).
    public static let uid = EddystoneFrameType(rawValue: 0x00)
    /// Eddystone-URL (0x10).
    public static let url = EddystoneFrameType(rawValue: 0x10)
    /// Eddystone-TLM (0x20): the version byte after it tells the unencrypted frame (0) from
    /// the encrypted one (1) (EDDYSTONE-TLM-1).
    public static let tlm = EddystoneFrameType(rawValue: 0x20)
    /// Eddystone-EID (0x30).
    public static let eid = EddystoneFrameType(rawValue: 0x30)
    /// The E2EE-EID frame of Google's Find Hub network (normal mode; EDDYSTONE-E2EE-1).
    public static let e2eeEID = EddystoneFrameType(rawValue: 0x40)
}
