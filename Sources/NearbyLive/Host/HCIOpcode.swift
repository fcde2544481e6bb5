/// HCI command opcodes (OGF << 10 | OCF; Core Vol 4 Part E §7) of the commands a scanning
/// host sends. An open code space.
public struct HCIOpcode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// §7.3.1 Set Event Mask: 8 bytes of event mask.
    public static let setEventMask = HCIOpcode(rawValue: 0x0C01)
    /// §7.3.2 Reset.
    public static let reset = HCIOpcode(rawValue: 0x0C03)
    /// §7.8.1 LE Set Event Mask: 8 bytes of LE event mask.
    public static let leSetEventMask = HCIOpcode(rawValue: 0x2001)
    /// §7.8.3 LE Read Local Supported Features: returns 8 bytes of LE features.
    public static let leReadLocalSupportedFeatures = HCIOpcode(rawValue: 0x2003)
    /// §7.8.10 LE Set Scan Parameters.
    public static let leSetScanParameters = HCIOpcode(rawValue: 0x200B)
    /// §7.8.11 LE Set Scan Enable.
    public static let leSetScanEnable = HCIOpcode(rawValue: 0x200C)
    /// §7.8.64 LE Set Extended Scan Parameters.
    public static let leSetExtendedScanParameters = HCIOpcode(rawValue: 0x2041)
    /// §7.8.65 LE Set Extended Scan Enable.
    public static let leSetExtendedScanEnable = HCIOpcode(rawValue: 0x2042)

    public var description: String {
        let name: String? =
            switch self {
            case .setEventMask: "Set Event Mask"
            case .reset: "Reset"
            case .leSetEventMask: "LE Set Event Mask"
            case .leReadLocalSupportedFeatures: "LE Read Local Supported Features"
            case .leSetScanParameters: "LE Set Scan Parameters"
            case .leSetScanEnable: "LE Set Scan Enable"
            case .leSetExtendedScanParameters: "LE Set Extended Scan Parameters"
            case .leSetExtendedScanEnable: "LE Set Extended Scan Enable"
            default: nil
            }
        let digits = String(rawValue, radix: 16)
        let hex = "0x" + String(repeating: "0", count: 4 - digits.count) + digits
        return name.map { "\($0) (\(hex))" } ?? hex
    }
}
