import NearbyBytes

/// HCI LE Advertising Report event, LE Meta subevent 0x02 (HCI-ADV-7 to HCI-ADV-18; Core Vol 4
/// Part E §7.7.65.2).
///
/// `Num_Reports(1)` then, report after report (the arrayed-parameter order of §5.2, as
/// Wireshark and BlueZ read it): `Event_Type(1) Address_Type(1) Address(6, LE)
/// Data_Length(1) Data(Data_Length) RSSI(int8)`. Event_Type 0 ADV_IND, 1 ADV_DIRECT_IND,
/// 2 ADV_SCAN_IND, 3 ADV_NONCONN_IND, 4 SCAN_RSP. RSSI −127…+20 dBm, 127 = not available.
/// Num_Reports is 1–25 and Data_Length 0–31 by the specification; larger values are
/// tolerated as long as the bytes are there. Reports decoded before a malformed one are
/// still emitted; bytes after the last report are `trailing-bytes`.
public enum LEAdvertisingReport {
    /// Decodes the subevent parameters after the subevent code.
    package static func decode(
        _ c: inout ByteCursor, context: RecordContext, into slot: UnsafeMutablePointer<Advertisement>,
        emitted: () -> Void
    ) throws(DecodeError) {
        try c.forEachReport(in: .advertisingReport) { c throws(DecodeError) in
            let eventType = try c.readUInt8("Event_Type")
            let (addressType, address) = try c.readTypedAddress("Address_Type", "Address")
            try c.readReportData(into: &slot.pointee.data)  // HCI-ADV-14
            let rssi = try c.readPower("RSSI")  // HCI-ADV-13
            slot.pointee.fill(
                record: context.index, timestampMicros: context.timestampMicros, source: .hciAdvertisingReport,
                eventTypeRaw: UInt16(eventType), address: address, addressType: addressType, rssiDBm: rssi)
            emitted()  // HCI-ADV-8, HCI-ADV-17: each report as it decodes
        }
        try c.expectEnd("LE Advertising Report")  // HCI-ADV-16
    }
}
