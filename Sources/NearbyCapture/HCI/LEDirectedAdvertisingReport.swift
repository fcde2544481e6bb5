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
        c.layer = .directedAdvertisingReport
        let count = try c.readUInt8("Num_Reports")
        for _ in 0..<count {
            let eventType = try c.readUInt8("Event_Type")
            let addressType = try c.readUInt8("Address_Type")
            let address = try c.readAddressLE("Address")
            let directType = try c.readUInt8("Direct_Address_Type")
            let direct = try c.readAddressLE("Direct_Address")
            let rssi = try c.readInt8("RSSI")
            slot.pointee.fill(
                record: context.index, timestampMicros: context.timestampMicros,
                source: .hciDirectedAdvertisingReport, eventTypeRaw: UInt16(eventType),
                address: BluetoothAddress(rawValue: address), addressType: AddressType(rawValue: addressType),
                rssiDBm: rssi == 127 ? nil : rssi, data: nil,
                directAddress: BluetoothAddress(rawValue: direct), directAddressType: AddressType(rawValue: directType))
            emitted()
        }
        try c.expectEnd("LE Directed Advertising Report")
    }
}
