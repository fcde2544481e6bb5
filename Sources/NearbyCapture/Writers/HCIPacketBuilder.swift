/// Builds H4 HCI packets (H4-1, HCI-ADV-7, HCI-EXT-1; Core Vol 4 Part E §5.4, §7.7.65.2,
/// §7.7.65.13): the packet-type byte, then the command or event. Used by the synthesizer;
/// the decoders' tests build their fixtures independently.
public enum HCIPacketBuilder {
    /// One report of an LE Advertising Report event (§7.7.65.2).
    public struct LegacyReport: Sendable {
        /// Event_Type 0–4: ADV_IND, ADV_DIRECT_IND, ADV_SCAN_IND, ADV_NONCONN_IND, SCAN_RSP.
        public var eventType: UInt8
        public var addressType: AddressType
        public var address: BluetoothAddress
        /// AD data, at most 31 bytes.
        public var data: [UInt8]
        /// dBm, −127…+20; 127 means not available.
        public var rssi: Int8

        public init(eventType: UInt8, addressType: AddressType, address: BluetoothAddress, data: [UInt8], rssi: Int8) {
            self.eventType = eventType
            self.addressType = addressType
            self.address = address
            self.data = data
            self.rssi = rssi
        }

        /// Bytes this report takes in the event's parameters.
        public var encodedLength: Int { 10 + data.count }
    }

    /// One report of an LE Extended Advertising Report event (§7.7.65.13).
    public struct ExtendedReport: Sendable {
        /// Event_Type bits: 0 connectable, 1 scannable, 2 directed, 3 scan response,
        /// 4 legacy PDU, 5–6 data status (0 complete, 1 incomplete with more to come,
        /// 2 incomplete and truncated).
        public var eventType: UInt16
        public var addressType: AddressType
        public var address: BluetoothAddress
        /// 1 LE 1M, 3 LE Coded.
        public var primaryPHY: UInt8 = 1
        /// 0 none, 1 LE 1M, 2 LE 2M, 3 LE Coded.
        public var secondaryPHY: UInt8 = 0
        /// Advertising_SID, 0xFF when none.
        public var sid: UInt8 = 0xFF
        /// dBm; 127 not available.
        public var txPower: Int8 = 127
        /// dBm; 127 not available.
        public var rssi: Int8
        public var data: [UInt8]

        public init(eventType: UInt16, addressType: AddressType, address: BluetoothAddress, rssi: Int8, data: [UInt8]) {
            self.eventType = eventType
            self.addressType = addressType
            self.address = address
            self.rssi = rssi
            self.data = data
        }

        /// Bytes this report takes in the event's parameters.
        public var encodedLength: Int { 24 + data.count }
    }

    /// Largest parameter length of an HCI event.
    public static let maximumEventParameters = 255

    /// An LE Meta event (code 0x3E) with `subevent` and its parameters.
    public static func leMetaEvent(_ subevent: LEMetaSubevent, _ parameters: [UInt8]) -> [UInt8] {
        precondition(parameters.count < maximumEventParameters, "event parameters exceed 255 bytes")
        return [
            HCIPacketType.event.rawValue, HCIEventCode.leMeta.rawValue, UInt8(parameters.count + 1), subevent.rawValue,
        ] + parameters
    }

    /// An LE Advertising Report event holding `reports` (1–25; they must fit in 254 bytes).
    public static func advertisingReportEvent(_ reports: [LegacyReport]) -> [UInt8] {
        var p: [UInt8] = [UInt8(reports.count)]
        for r in reports {
            p.append(r.eventType)
            p.append(r.addressType.rawValue)
            p += r.address.littleEndianBytes
            p.append(UInt8(r.data.count))
            p += r.data
            p.append(UInt8(bitPattern: r.rssi))
        }
        return leMetaEvent(.advertisingReport, p)
    }

    /// An LE Extended Advertising Report event holding `reports`.
    public static func extendedAdvertisingReportEvent(_ reports: [ExtendedReport]) -> [UInt8] {
        var p: [UInt8] = [UInt8(reports.count)]
        for r in reports {
            p.appendLE(r.eventType)
            p.append(r.addressType.rawValue)
            p += r.address.littleEndianBytes
            p += [r.primaryPHY, r.secondaryPHY, r.sid, UInt8(bitPattern: r.txPower), UInt8(bitPattern: r.rssi)]
            p.appendLE(UInt16(0))  // Periodic_Advertising_Interval
            p.append(0x00)  // Direct_Address_Type
            p += [UInt8](repeating: 0, count: 6)  // Direct_Address
            p.append(UInt8(r.data.count))
            p += r.data
        }
        return leMetaEvent(.extendedAdvertisingReport, p)
    }

    /// An HCI command packet: opcode (OGF << 10 | OCF, little-endian), length, parameters.
    public static func command(opcode: UInt16, _ parameters: [UInt8]) -> [UInt8] {
        var p: [UInt8] = [HCIPacketType.command.rawValue]
        p.appendLE(opcode)
        p.append(UInt8(parameters.count))
        return p + parameters
    }

    /// A Command Complete event for `opcode` with one status byte.
    public static func commandComplete(opcode: UInt16, status: UInt8 = 0) -> [UInt8] {
        var p: [UInt8] = [HCIPacketType.event.rawValue, HCIEventCode.commandComplete.rawValue, 4, 1]
        p.appendLE(opcode)
        p.append(status)
        return p
    }

    /// Opcodes of the LE controller commands a scanning host sends (OGF 0x08).
    public enum Opcode {
        public static let setScanParameters: UInt16 = 0x200B
        public static let setScanEnable: UInt16 = 0x200C
        public static let setExtendedScanParameters: UInt16 = 0x2041
        public static let setExtendedScanEnable: UInt16 = 0x2042
    }
}
