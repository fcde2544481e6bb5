import NearbyBytes

/// The legacy HCI LE report events, whose reports are read one layout apart: LE Advertising
/// Report, LE Meta subevent 0x02 (HCI-ADV-7 to HCI-ADV-18; Core Vol 4 Part E §7.7.65.2), and
/// LE Directed Advertising Report, subevent 0x0B (HCI-ADV-19, HCI-ADV-20; §7.7.65.11).
///
/// `Num_Reports(1)` then, report after report (the arrayed-parameter order of §5.2, as
/// Wireshark and BlueZ read it): `Event_Type(1) Address_Type(1) Address(6, LE)`, then
/// `Data_Length(1) Data(Data_Length)` (undirected) or `Direct_Address_Type(1)
/// Direct_Address(6)` (directed), then `RSSI(int8)`. Event_Type 0 ADV_IND, 1 ADV_DIRECT_IND,
/// 2 ADV_SCAN_IND, 3 ADV_NONCONN_IND, 4 SCAN_RSP. RSSI −127…+20 dBm, 127 = not available.
/// Num_Reports is 1–25 and Data_Length 0–31 by the specification; larger values are
/// tolerated as long as the bytes are there. Directed reports carry no AD data: they are
/// advertisements without beacons. Reports decoded before a malformed one are still
/// emitted; bytes after the last report are `trailing-bytes`.
public enum LEAdvertisingReport {
    /// Which of the two legacy events a report is read from.
    package enum Layout {
        /// LE Advertising Report (subevent 0x02): the report holds AD data.
        case undirected
        /// LE Directed Advertising Report (subevent 0x0B): the report holds the address it
        /// is directed to instead.
        case directed
    }

    /// Decodes the subevent parameters after the subevent code.
    @inline(__always)
    package static func decode(
        _ c: inout ByteCursor, _ layout: Layout, context: RecordContext,
        into slot: UnsafeMutablePointer<Advertisement>, emitted: () -> Void
    ) throws(DecodeError) {
        let directed = layout == .directed
        try c.forEachReport(in: directed ? .directedAdvertisingReport : .advertisingReport) { c throws(DecodeError) in
            let eventType = try c.readUInt8("Event_Type")
            let (addressType, address) = try c.readTypedAddress("Address_Type", "Address")
            var direct: (type: AddressType, address: BluetoothAddress)?
            if directed {
                direct = try c.readTypedAddress("Direct_Address_Type", "Direct_Address")
                slot.pointee.data.store(nil)
            } else {
                try c.readReportData(into: &slot.pointee.data)  // HCI-ADV-14
            }
            let rssi = try c.readPower("RSSI")  // HCI-ADV-13
            slot.pointee.fill(
                record: context.index, timestampMicros: context.timestampMicros,
                source: directed ? .hciDirectedAdvertisingReport : .hciAdvertisingReport,
                eventTypeRaw: UInt16(eventType), address: address, addressType: addressType, rssiDBm: rssi,
                directAddress: direct?.address, directAddressType: direct?.type)
            emitted()  // HCI-ADV-8, HCI-ADV-17: each report as it decodes
        }
        try c.expectEnd(directed ? "LE Directed Advertising Report" : "LE Advertising Report")  // HCI-ADV-16
    }
}
