import NearbyBytes

/// An LE packet on the advertising physical channel as sniffers capture it, without the
/// preamble: `Access_Address(4, LE) Header(2) Payload(Length) CRC(3)` (LL-1; Core Vol 6
/// Part B §2.1, §2.3; LINKTYPE_BLUETOOTH_LE_LL).
///
/// Header byte 0: PDU type (bits 0–3), ChSel (5), TxAdd (6), RxAdd (7); byte 1: payload
/// length. PDU types: 0 ADV_IND, 1 ADV_DIRECT_IND, 2 ADV_NONCONN_IND, 3 SCAN_REQ,
/// 4 SCAN_RSP, 5 CONNECT_IND, 6 ADV_SCAN_IND, 7 ADV_EXT_IND, 8 AUX_CONNECT_RSP.
/// ADV_IND, ADV_NONCONN_IND, ADV_SCAN_IND and SCAN_RSP carry `AdvA(6)` and AD data
/// (for SCAN_RSP, AdvA is the advertiser that answers, so its beacons are attributed to
/// it). Packets on another access address are data-channel traffic and are ignored.
public enum AdvertisingPDU {
    /// The access address of every advertising physical channel PDU.
    public static let advertisingAccessAddress: UInt32 = 0x8E89_BED6

    /// What the capture device says about the CRC.
    public enum CRCStatus: Sendable {
        case unchecked, valid, failed
    }

    /// How a capture stores the three CRC bytes.
    public enum CRCLayout: Sendable {
        /// As received on air: the bit-reflected register, little-endian (LINKTYPE 251, 256;
        /// what scapy and TShark compute).
        case onAir
        /// The radio's CRC register value, little-endian, as nRF Sniffer firmware writes it
        /// (the bit reverse of the on-air form; TShark displays every CRC this way). Packets
        /// in the on-air form are accepted too (NRF-8).
        case registerValue
    }

    package static func decode(
        _ c: inout ByteCursor, context: RecordContext, channelIndex: UInt8?, rssi: Int8?,
        crcStatus: CRCStatus, crcLayout: CRCLayout = .onAir,
        into slot: UnsafeMutablePointer<Advertisement>, emitted: () -> Void
    ) throws(DecodeError) -> RecordOutcome {
        c.layer = .linkLayer
        let packetStart = c.readerIndex
        let accessAddress = try c.readUInt32LE("Access_Address")
        // LL-2: another access address is data-channel traffic, before anything else is read.
        guard accessAddress == advertisingAccessAddress else { return .ignored(.llDataChannel) }
        // LL-7: a CRC the capture device failed, at the access address.
        if crcStatus == .failed {
            throw c.error(.crcFailed, at: packetStart, "the capture device reports a CRC error")
        }
        let pduStart = c.readerIndex
        let pdu = c
        let header = try c.readUInt8("PDU header")
        let lengthOffset = c.readerIndex
        let length = try c.readUInt8("Length")
        // LL-3: a payload length past the record is `length-overrun` at the length octet.
        var p = try c.carveDeclared(Int(length), declaredAt: lengthOffset, "PDU payload")
        let crcOffset = c.readerIndex
        let carried = try c.readUInt24LE("CRC")
        try c.expectEnd("LE packet")  // LL-4
        var covered = pdu
        let computed = try covered.carve(crcOffset - pduStart, "CRC input").bytes.withUnsafeBytes {
            BLECRC24.compute($0)
        }
        let matches = computed == carried || (crcLayout == .registerValue && BLECRC24.reversed(computed) == carried)
        // LL-5, LL-6: the CRC as computed, or (NRF-8) its register form.
        if !matches {
            throw c.error(
                .crcMismatch, at: crcOffset,
                "CRC \(Hex.code(carried, digits: 6)) differs from the computed \(Hex.code(computed, digits: 6))")
        }
        let type = header & 0x0F
        let txAdd = AddressType(rawValue: (header >> 6) & 1)
        let rxAdd = AddressType(rawValue: (header >> 7) & 1)
        switch type {
        case 0, 2, 4, 6:
            // LL-8: AdvA, then AD data; TxAdd gives the address type. LL-9: a SCAN_RSP's AdvA.
            let address = try p.readAddressLE("AdvA")
            slot.pointee.data.store(p.readRestInlineBytes())
            slot.pointee.fill(
                record: context.index, timestampMicros: context.timestampMicros, source: .linkLayer,
                eventTypeRaw: UInt16(type), address: BluetoothAddress(rawValue: address), addressType: txAdd,
                rssiDBm: rssi, channelIndex: channelIndex)
            emitted()
            return .decoded
        case 1:
            // LL-10: ADV_DIRECT_IND carries two addresses and no AD data.
            let address = try p.readAddressLE("AdvA")
            let target = try p.readAddressLE("TargetA")
            try p.expectEnd("ADV_DIRECT_IND")
            slot.pointee.data.store(nil)
            slot.pointee.fill(
                record: context.index, timestampMicros: context.timestampMicros, source: .linkLayer,
                eventTypeRaw: 1, address: BluetoothAddress(rawValue: address), addressType: txAdd,
                rssiDBm: rssi, channelIndex: channelIndex,
                directAddress: BluetoothAddress(rawValue: target), directAddressType: rxAdd)
            emitted()
            return .decoded
        // LL-11
        case 3: return .ignored(.llScanRequest)
        case 5: return .ignored(.llConnectIndication)
        case 7, 8: return .ignored(.llExtendedAdvertising)
        default:  // LL-12
            throw c.error(.invalidValue, at: pduStart, "PDU type \(type) is reserved")
        }
    }
}
