import NearbyBytes

/// An HCI event packet: `Event_Code(1) Parameter_Total_Length(1) Parameters` (HCI-ADV-1 to
/// HCI-ADV-4; Core Vol 4 Part E §5.4.4). The parameter length must account for every byte of the record: fewer
/// bytes is `length-overrun` (at offset of the length field), more is `trailing-bytes`.
public struct HCIEvent: Sendable {
    public var code: HCIEventCode
    /// The parameters, with the record's indices.
    public var parameters: ArraySlice<UInt8>

    public init(decoding bytes: ArraySlice<UInt8>) throws(DecodeError) {
        var c = ByteCursor(bytes, layer: .hciEvent)
        code = try Self.readHeader(&c)
        parameters = bytes[c.readRestRange()]
    }

    /// Reads the event code and parameter length at the cursor, checks that the parameters
    /// are exactly the rest of the cursor's bytes (the errors of `init(decoding:)`), and
    /// leaves the cursor at the first parameter, of layer `hciEvent`: for decoders that walk
    /// a record with one cursor.
    @inline(__always)
    package static func readHeader(_ c: inout ByteCursor) throws(DecodeError) -> HCIEventCode {
        c.layer = .hciEvent
        let code = HCIEventCode(rawValue: try c.readUInt8("Event_Code"))
        let lengthOffset = c.readerIndex
        let length = Int(try c.readUInt8("Parameter_Total_Length"))
        try c.expectDeclaredRest(length, declaredAt: lengthOffset, "event parameters", of: "HCI event")
        return code
    }
}
