/// Builds advertising-channel LE link-layer packets as LINKTYPE 251/256 carry them
/// (LL-1, LL-8, LL-13; Core Vol 6 Part B §2.1, §2.3): access address (little-endian), PDU
/// header, AdvA and AD data, CRC in capture byte order; and the 256 pseudo-header.
public enum LinkLayerPacketBuilder {
    /// PDU types of the primary advertising channel (Core Vol 6 Part B §2.3).
    public enum PDUType {
        public static let advInd: UInt8 = 0x0
        public static let advNonconnInd: UInt8 = 0x2
        public static let advScanInd: UInt8 = 0x6
    }

    /// An advertising packet: `pduType` with TxAdd from `addressType`, AdvA, `data` (≤ 31 bytes).
    public static func advertisingPacket(
        pduType: UInt8, addressType: AddressType, address: BluetoothAddress, data: [UInt8]
    ) -> [UInt8] {
        var packet: [UInt8] = []
        packet.appendLE(AdvertisingPDU.advertisingAccessAddress)
        let txAdd: UInt8 = addressType.rawValue & 1 == 1 ? 0x40 : 0
        let pdu = [pduType | txAdd, UInt8(6 + data.count)] + address.littleEndianBytes + data
        packet += pdu
        let crc = BLECRC24.compute(pdu)
        packet += [UInt8(crc & 0xFF), UInt8((crc >> 8) & 0xFF), UInt8(crc >> 16)]
        return packet
    }

    /// The LINKTYPE 256 pseudo-header for a packet received on advertising channel
    /// `channelIndex` (37–39) with `signal` dBm: dewhitened, signal valid, CRC checked and valid.
    public static func pseudoHeader(channelIndex: UInt8, signal: Int8) -> [UInt8] {
        let rf: UInt8 =
            switch channelIndex {
            case 37: 0
            case 38: 12
            case 39: 39
            case 0...10: channelIndex + 1
            default: channelIndex + 2
            }
        var h: [UInt8] = [rf, UInt8(bitPattern: signal), 0, 0]
        h.appendLE(AdvertisingPDU.advertisingAccessAddress)
        h.appendLE(UInt16(0x0001 | 0x0002 | 0x0010 | 0x0400 | 0x0800))
        return h
    }
}
