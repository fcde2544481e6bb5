import NearbyBytes

/// HCI LE Extended Advertising Report event, LE Meta subevent 0x0D (HCI-EXT-1 to HCI-EXT-5,
/// HCI-EXT-14 to HCI-EXT-20; Core Vol 4 Part E §7.7.65.13).
///
/// `Num_Reports(1)` then per report (24 fixed bytes and the data):
/// `Event_Type(2, LE) Address_Type(1) Address(6) Primary_PHY(1) Secondary_PHY(1)
/// Advertising_SID(1) TX_Power(int8) RSSI(int8) Periodic_Advertising_Interval(2, LE)
/// Direct_Address_Type(1) Direct_Address(6) Data_Length(1) Data`.
///
/// Event_Type bits: 0 connectable, 1 scannable, 2 directed, 3 scan response, 4 legacy,
/// 5–6 data status (0 complete, 1 incomplete with more to come, 2 incomplete and
/// truncated, 3 reserved), 7–15 reserved (kept in `eventTypeRaw`). TX_Power and RSSI use
/// 127 for "not available". Reports are handed to `ExtendedAdvertisingReassembler`,
/// which joins chained fragments before emitting.
public enum LEExtendedAdvertisingReport {
    package static func decode(
        _ c: inout ByteCursor, context: RecordContext, reassembler: inout ExtendedAdvertisingReassembler,
        into slot: UnsafeMutablePointer<Advertisement>, emitted: () -> Void
    ) throws(DecodeError) {
        try c.forEachReport(in: .extendedAdvertisingReport) { c throws(DecodeError) in
            let eventType = try c.readUInt16LE("Event_Type")
            let (addressType, address) = try c.readTypedAddress("Address_Type", "Address")
            let primaryPHY = try c.readUInt8("Primary_PHY")
            let secondaryPHY = try c.readUInt8("Secondary_PHY")
            let sid = try c.readUInt8("Advertising_SID")
            let txPower = try c.readPower("TX_Power")  // HCI-EXT-14
            let rssi = try c.readPower("RSSI")
            let interval = try c.readUInt16LE("Periodic_Advertising_Interval")
            let (directType, direct) = try c.readTypedAddress("Direct_Address_Type", "Direct_Address")
            try c.readReportData(into: &slot.pointee.data)
            // HCI-EXT-17: the direct address only when directed; HCI-EXT-5: the data status.
            let directed = eventType & 0x0004 != 0
            let status = UInt8((eventType >> 5) & 0x3)
            slot.pointee.fill(
                record: context.index, timestampMicros: context.timestampMicros,
                source: .hciExtendedAdvertisingReport, eventTypeRaw: eventType, address: address,
                addressType: addressType, rssiDBm: rssi, txPowerDBm: txPower,
                extended: ExtendedReportDetails(
                    primaryPHY: primaryPHY, secondaryPHY: secondaryPHY, sid: sid,
                    periodicAdvertisingInterval: interval, dataStatus: status, truncated: status == 2),
                directAddress: directed ? direct : nil, directAddressType: directed ? directType : nil)
            reassembler.accept(slot, emitted: emitted)
        }
        try c.expectEnd("LE Extended Advertising Report")
    }
}
