import NearbyBytes

/// The 10-byte pseudo-header of LINKTYPE_BLUETOOTH_LE_LL_WITH_PHDR (256), all
/// little-endian: `RF_Channel(1) Signal_Power(int8, dBm) Noise_Power(int8, dBm)
/// Access_Address_Offenses(1) Reference_Access_Address(4) Flags(2)` (LL-13).
///
/// Flags: 0x0001 dewhitened, 0x0002 signal power valid, 0x0004 noise power valid,
/// 0x0008 decrypted, 0x0010 reference AA valid, 0x0020 AA offenses valid, 0x0040 channel
/// aliased, 0x0380 PDU type, 0x0400 CRC checked, 0x0800 CRC valid, 0x1000 MIC checked,
/// 0x2000 MIC valid, 0xC000 PHY. The RF channel is the physical channel (2402 + 2·n MHz),
/// converted here to the link-layer channel index (RF 0 → 37, RF 12 → 38, RF 39 → 39; LL-15).
public struct LEPseudoHeader: Sendable {
    public var rfChannel: UInt8
    public var signalPowerDBm: Int8?
    public var noisePowerDBm: Int8?
    public var flags: UInt16

    public static let length = 10

    package init(_ c: inout ByteCursor) throws(DecodeError) {
        c.layer = .lePseudoHeader
        let channelOffset = c.readerIndex
        rfChannel = try c.readUInt8("RF_Channel")
        let signal = try c.readInt8("Signal_Power")
        let noise = try c.readInt8("Noise_Power")
        try c.skip(1, "Access_Address_Offenses")
        try c.skip(4, "Reference_Access_Address")
        flags = try c.readUInt16LE("Flags")
        // LL-14: the signal power is an RSSI only when the capture device says it is valid.
        signalPowerDBm = flags & 0x0002 != 0 ? signal : nil
        noisePowerDBm = flags & 0x0004 != 0 ? noise : nil
        // LL-16: the whole pseudo-header is read (a short record is `truncated`) before this.
        if rfChannel > 39 {
            throw c.error(.invalidValue, at: channelOffset, "RF channel \(rfChannel) is not 0–39")
        }
    }

    /// The link-layer channel index of an RF channel 0–39.
    public static func channelIndex(rfChannel: UInt8) -> UInt8 {
        switch rfChannel {
        case 0: 37
        case 12: 38
        case 39: 39
        case 1...11: rfChannel - 1
        default: rfChannel - 2
        }
    }

    public var channelIndex: UInt8 { Self.channelIndex(rfChannel: rfChannel) }

    /// LL-13, LL-7: flag 0x0400 (checked) without 0x0800 (valid) is a CRC the device failed.
    public var crcStatus: AdvertisingPDU.CRCStatus {
        flags & 0x0400 == 0 ? .unchecked : (flags & 0x0800 != 0 ? .valid : .failed)
    }
}
