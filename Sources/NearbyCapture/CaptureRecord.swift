/// One record of a capture file, as the container stored it, before link-layer decoding: the
/// owned form of a `RecordView`, for a record kept beyond the call that lent it.
public struct CaptureRecord: Sendable {
    public var metadata: RecordMetadata
    /// The captured bytes; `bytes.startIndex == 0`, so indices are offsets in the record.
    public var bytes: ArraySlice<UInt8>

    public init(_ metadata: RecordMetadata, bytes: ArraySlice<UInt8>) {
        self.metadata = metadata
        self.bytes = bytes
    }

    /// A record whose original length is the bytes' count unless given.
    public init(
        index: Int, timestampMicros: Int64?, encapsulation: Encapsulation, bytes: ArraySlice<UInt8>,
        originalLength: Int? = nil
    ) {
        self.init(
            RecordMetadata(
                index: index, timestampMicros: timestampMicros, encapsulation: encapsulation,
                originalLength: originalLength ?? bytes.count),
            bytes: bytes)
    }
}

/// How a record's bytes are framed.
public enum Encapsulation: Hashable, Sendable {
    /// A pcap or pcapng record of this link type.
    case pcap(LinkType)
    /// A btsnoop record: the file's datalink and the record's flags.
    case btsnoop(BtsnoopDatalink, flags: UInt32)
    /// One line of hex text: an H4 packet (indicator byte first).
    case hexText
}

/// pcap LINKTYPE_ values (tcpdump.org link-layer header types). An open code space.
public struct LinkType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// LINKTYPE_BLUETOOTH_HCI_H4: an H4 packet, no direction.
    public static let bluetoothHCIH4 = LinkType(rawValue: 187)
    /// LINKTYPE_BLUETOOTH_HCI_H4_WITH_PHDR: 4-byte big-endian direction (bit 0 = received), then H4.
    public static let bluetoothHCIH4WithPHDR = LinkType(rawValue: 201)
    /// LINKTYPE_BLUETOOTH_LE_LL: access address, PDU, CRC.
    public static let bluetoothLELL = LinkType(rawValue: 251)
    /// LINKTYPE_BLUETOOTH_LINUX_MONITOR: adapter (2, BE), opcode (2, BE), payload.
    public static let bluetoothLinuxMonitor = LinkType(rawValue: 254)
    /// LINKTYPE_BLUETOOTH_LE_LL_WITH_PHDR: 10-byte RF pseudo-header, then an LE LL packet.
    public static let bluetoothLELLWithPHDR = LinkType(rawValue: 256)
    /// LINKTYPE_NORDIC_BLE: nRF Sniffer header, then an LE LL packet.
    public static let nordicBLE = LinkType(rawValue: 272)

    public var description: String {
        switch self {
        case .bluetoothHCIH4: "187 (BLUETOOTH_HCI_H4)"
        case .bluetoothHCIH4WithPHDR: "201 (BLUETOOTH_HCI_H4_WITH_PHDR)"
        case .bluetoothLELL: "251 (BLUETOOTH_LE_LL)"
        case .bluetoothLinuxMonitor: "254 (BLUETOOTH_LINUX_MONITOR)"
        case .bluetoothLELLWithPHDR: "256 (BLUETOOTH_LE_LL_WITH_PHDR)"
        case .nordicBLE: "272 (NORDIC_BLE)"
        default: String(rawValue)
        }
    }
}

/// btsnoop datalink types (btsnoop file header). An open code space.
public struct BtsnoopDatalink: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Un-encapsulated HCI (H1): the packet type comes from the record flags.
    public static let hciUnencapsulated = BtsnoopDatalink(rawValue: 1001)
    /// HCI UART (H4): the first byte is the packet indicator.
    public static let hciUART = BtsnoopDatalink(rawValue: 1002)
    /// HCI BCSP, not decoded.
    public static let hciBCSP = BtsnoopDatalink(rawValue: 1003)
    /// HCI three-wire (H5), not decoded.
    public static let hciThreeWire = BtsnoopDatalink(rawValue: 1004)
    /// Linux monitor: flags = adapter << 16 | opcode.
    public static let linuxMonitor = BtsnoopDatalink(rawValue: 2001)
    /// BlueZ simulator, not decoded.
    public static let simulator = BtsnoopDatalink(rawValue: 2002)

    public var description: String {
        switch self {
        case .hciUnencapsulated: "1001 (HCI un-encapsulated)"
        case .hciUART: "1002 (HCI UART/H4)"
        case .hciBCSP: "1003 (HCI BCSP)"
        case .hciThreeWire: "1004 (HCI three-wire)"
        case .linuxMonitor: "2001 (Linux monitor)"
        case .simulator: "2002 (simulator)"
        default: String(rawValue)
        }
    }
}
