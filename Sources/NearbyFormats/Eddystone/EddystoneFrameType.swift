/// Eddystone frame types: the first byte of the Eddystone service data (EDDYSTONE-FRAME-8).
/// The high nibble is the type, the low nibble is reserved and must be 0, so a byte with a
/// non-zero low nibble is unknown (EDDYSTONE-FRAME-10). An open code space.
public struct EddystoneFrameType: RawRepresentable, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let uid = EddystoneFrameType(rawValue: 0x00)
    public static let url = EddystoneFrameType(rawValue: 0x10)
    public static let tlm = EddystoneFrameType(rawValue: 0x20)
    public static let eid = EddystoneFrameType(rawValue: 0x30)
    /// The E2EE-EID frame of Google's Find Hub network (normal mode; EDDYSTONE-E2EE-1).
    public static let e2eeEID = EddystoneFrameType(rawValue: 0x40)
}
