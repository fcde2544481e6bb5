/// H4 packet indicators (H4-1, H4-4; Core Vol 4 Part A §2; BlueZ `lib/bluetooth/hci.h` HCI_*_PKT).
/// An open code space.
public struct HCIPacketType: RawRepresentable, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let command = HCIPacketType(rawValue: 0x01)
    public static let aclData = HCIPacketType(rawValue: 0x02)
    public static let scoData = HCIPacketType(rawValue: 0x03)
    public static let event = HCIPacketType(rawValue: 0x04)
    public static let isoData = HCIPacketType(rawValue: 0x05)
    /// Vendor-specific framing used by some Android stacks.
    public static let vendor = HCIPacketType(rawValue: 0xFF)
}

/// HCI event codes (Core Vol 4 Part E §7.7). An open code space.
public struct HCIEventCode: RawRepresentable, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let commandComplete = HCIEventCode(rawValue: 0x0E)
    public static let commandStatus = HCIEventCode(rawValue: 0x0F)
    public static let leMeta = HCIEventCode(rawValue: 0x3E)
    public static let vendorSpecific = HCIEventCode(rawValue: 0xFF)
}

/// LE Meta event subevent codes (HCI-ADV-6; Core Vol 4 Part E §7.7.65). An open code space.
public struct LEMetaSubevent: RawRepresentable, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let advertisingReport = LEMetaSubevent(rawValue: 0x02)
    public static let directedAdvertisingReport = LEMetaSubevent(rawValue: 0x0B)
    public static let extendedAdvertisingReport = LEMetaSubevent(rawValue: 0x0D)
}

/// What the report decoders need to know of the record they decode.
public struct RecordContext: Sendable {
    public var index: Int
    public var timestampMicros: Int64?
    public init(index: Int, timestampMicros: Int64?) {
        self.index = index
        self.timestampMicros = timestampMicros
    }
}
