import NearbyBytes

/// The fields the HCI LE report events share (Core Vol 4 Part E §7.7.65.2, §7.7.65.11,
/// §7.7.65.13), read where each report decoder meets them.
extension ByteCursor {
    /// `Num_Reports(1)`, read in `layer`, then `body` once per report, at its first field
    /// (HCI-ADV-7: the reports one after another).
    @inline(__always)
    mutating func forEachReport(
        in layer: DecodeError.Layer, _ body: (inout ByteCursor) throws(DecodeError) -> Void
    ) throws(DecodeError) {
        self.layer = layer
        let count = try readUInt8("Num_Reports")
        for _ in 0..<count { try body(&self) }
    }

    /// An address type (1 byte) and an address (6 bytes, little-endian), named `typeField`
    /// and `field`.
    @inline(__always)
    mutating func readTypedAddress(
        _ typeField: StaticString, _ field: StaticString
    ) throws(DecodeError) -> (type: AddressType, address: BluetoothAddress) {
        let type = try readUInt8(typeField)
        return (AddressType(rawValue: type), BluetoothAddress(rawValue: try readAddressLE(field)))
    }

    /// An RSSI or TX power (int8, dBm): nil for 127, "not available" (HCI-ADV-13, HCI-EXT-14).
    @inline(__always)
    mutating func readPower(_ field: StaticString) throws(DecodeError) -> Int8? {
        let value = try readInt8(field)
        return value == 127 ? nil : value
    }

    /// `Data_Length(1) Data(Data_Length)`, the data read into `data` in place (where the
    /// advertisement is built: a report that faults after it is not emitted). A length past
    /// the event is `length-overrun` at it (HCI-ADV-14).
    @inline(__always)
    mutating func readReportData(into data: inout InlineBytes?) throws(DecodeError) {
        let lengthOffset = readerIndex
        let length = try readUInt8("Data_Length")
        try readDeclaredInlineBytes(Int(length), declaredAt: lengthOffset, "Data", into: &data)
    }
}
