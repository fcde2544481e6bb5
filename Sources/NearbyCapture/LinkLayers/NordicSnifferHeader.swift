import NearbyBytes

/// The nRF Sniffer for Bluetooth LE header of LINKTYPE_NORDIC_BLE (272), protocol
/// versions 0–3 (NRF-1 to NRF-7; Wireshark `packet-nordic_ble.c`; tcpdump.org LINKTYPE_NORDIC_BLE).
///
/// Version 0 starts with the marker `BE EF`, then Packet_ID(1), Packet_Counter(2),
/// 2 unused bytes and Payload_Length(1): 8 bytes. Otherwise Board_ID(1) and, for version 1,
/// Header_Length(1) Payload_Length(1); for versions 2 and 3, Payload_Length(2, LE); then
/// Protocol_Version(1) Packet_Counter(2, LE) Packet_ID(1): 7 bytes. Header length plus
/// payload length must equal the record length. The event packet follows:
/// `[Length(1), versions ≥ 1] Flags(1) Channel(1) RSSI(1, the magnitude: RSSI = −value dBm)
/// Event_Counter(2) Time(4)`, then the LE packet from its access address.
/// Flags bit 0 = CRC OK. Channel is the link-layer channel index. In version 3, Packet_ID
/// 0x02 marks advertising-channel and 0x06 data-channel packets; before it, only the
/// access address tells them apart.
public struct NordicSnifferHeader: Sendable {
    public var protocolVersion: UInt8
    public var packetID: UInt8
    public var flags: UInt8
    public var channelIndex: UInt8
    public var rssiDBm: Int8

    package init(_ c: inout ByteCursor) throws(DecodeError) {
        c.layer = .nordicSniffer
        let total = c.readableBytes
        let headerLength: Int
        let payloadLength: Int
        let lengthOffset: Int
        if c.peekUInt8() == 0xBE && c.peekUInt8(ahead: 1) == 0xEF {
            try c.skip(2, "legacy marker")
            protocolVersion = 0
            packetID = try c.readUInt8("Packet_ID")
            try c.skip(2, "Packet_Counter")
            try c.skip(2, "unused")
            lengthOffset = c.readerIndex
            payloadLength = Int(try c.readUInt8("Payload_Length"))
            headerLength = 8
        } else {
            try c.skip(1, "Board_ID")
            // The version byte follows the length field, whose size depends on it; a header
            // too short to show it is read as versions 2 and 3 lay it out.
            let version = c.peekUInt8(ahead: 2) ?? 2
            if version == 1 {
                headerLength = Int(try c.readUInt8("Header_Length")) + 1
                lengthOffset = c.readerIndex
                payloadLength = Int(try c.readUInt8("Payload_Length"))
            } else {
                headerLength = 7
                lengthOffset = c.readerIndex
                payloadLength = Int(try c.readUInt16LE("Payload_Length"))
            }
            protocolVersion = try c.readUInt8("Protocol_Version")
            if protocolVersion > 3 {  // NRF-2
                throw c.error(
                    .unsupported, at: c.readerIndex - 1, "nRF Sniffer protocol version \(protocolVersion) is unknown")
            }
            try c.skip(2, "Packet_Counter")
            packetID = try c.readUInt8("Packet_ID")
        }
        if headerLength + payloadLength != total {  // NRF-3
            throw c.error(
                .lengthMismatch, at: lengthOffset,
                "header (\(headerLength)) and payload length (\(payloadLength)) do not add up to the record's "
                    + "\(total) bytes"
            )
        }
        if protocolVersion == 3 && packetID != 0x02 && packetID != 0x06 {
            // NRF-7: a control packet carries no event packet; its payload is not read.
            (flags, channelIndex, rssiDBm) = (0, 0, 0)
            return
        }
        if protocolVersion > 0 { try c.skip(1, "event packet Length") }
        flags = try c.readUInt8("Flags")
        channelIndex = try c.readUInt8("Channel")
        let magnitude = try c.readUInt8("RSSI")
        rssiDBm = Int8(clamping: -Int(magnitude))  // NRF-6
        try c.skip(2, "Event_Counter")
        try c.skip(4, "Time")
    }

    /// Whether the packet is known to be on a data channel from the header alone (NRF-7).
    public var isDataChannelPacket: Bool { protocolVersion == 3 && packetID == 0x06 }
    /// Version 3 packets that are neither advertising nor data packets: their payload is not
    /// an event packet, and `flags`, `channelIndex` and `rssiDBm` are 0.
    public var isControlPacket: Bool { protocolVersion == 3 && packetID != 0x02 && packetID != 0x06 }

    /// NRF-5: flag bit 0 is the sniffer's CRC check.
    public var crcStatus: AdvertisingPDU.CRCStatus { flags & 0x01 != 0 ? .valid : .failed }
}
