import NearbyBytes

/// HCI LE Directed Advertising Report event, LE Meta subevent 0x0B (HCI-ADV-19, HCI-ADV-20;
/// Core Vol 4 Part E §7.7.65.11): `Num_Reports(1)`, then per report `Event_Type(1) Address_Type(1)
/// Address(6) Direct_Address_Type(1) Direct_Address(6) RSSI(int8)`. These reports carry
/// no AD data: they are advertisements without beacons.
public enum LEDirectedAdvertisingReport {
    package static func decode(
        _ c: inout ByteCursor, context: RecordContext, into slot: UnsafeMutablePointer<Advertisement>,
        emitted: () -> Void
    ) throws(DecodeError) {
        try c.forEachReport(in: .directedAdvertisingReport) { c throws(DecodeError) in
            let eventType = try c.readUInt8("Event_Type")
            let (addressType, address) = try c.readTypedAddress("Address_Type", "Address")
            let (directType, direct) = try c.readTypedAddress("Direct_Address_Type", "Direct_Address")
            let rssi = try c.readPower("RSSI")
            slot.pointee.data.store(nil)
            slot.pointee.fill(
                record: context.index, timestampMicros: context.timestampMicros,
                source: .hciDirectedAdvertisingReport, eventTypeRaw: UInt16(eventType), address: address,
                addressType: addressType, rssiDBm: rssi, directAddress: direct, directAddressType: directType)
            emitted()
        }
        try c.expectEnd("LE Directed Advertising Report")
    }
}
