/// HCI error codes (Core Vol 1 Part F §1.3), as a controller returns them in Command
/// Complete and Command Status events. An open code space; 0x00 is success.
public struct HCIStatus: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let success = HCIStatus(rawValue: 0x00)

    /// The names of the codes a scanning host meets (Core Vol 1 Part F §2).
    static let names: [UInt8: String] = [
        0x01: "Unknown HCI Command", 0x02: "Unknown Connection Identifier", 0x03: "Hardware Failure",
        0x07: "Memory Capacity Exceeded", 0x0C: "Command Disallowed",
        0x0D: "Connection Rejected due to Limited Resources", 0x11: "Unsupported Feature or Parameter Value",
        0x12: "Invalid HCI Command Parameters", 0x1F: "Unspecified Error",
        0x3A: "Controller Busy",
    ]

    public var description: String {
        let hex = (rawValue < 0x10 ? "0x0" : "0x") + String(rawValue, radix: 16)
        return Self.names[rawValue].map { "\(hex) (\($0))" } ?? hex
    }
}
