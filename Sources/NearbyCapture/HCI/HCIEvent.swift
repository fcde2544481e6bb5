import NearbyBytes

/// An HCI event packet: `Event_Code(1) Parameter_Total_Length(1) Parameters` (Core Vol 4
/// Part E §5.4.4). The parameter length must account for every byte of the record: fewer
/// bytes is `length-overrun` (at offset of the length field), more is `trailing-bytes`.
public struct HCIEvent: Sendable {
    public var code: HCIEventCode
    /// The parameters, with the record's indices.
    public var parameters: ArraySlice<UInt8>

    public init(decoding bytes: ArraySlice<UInt8>) throws(DecodeError) {
        var c = ByteCursor(bytes, layer: .hciEvent)
        code = HCIEventCode(rawValue: try c.readUInt8("Event_Code"))
        let lengthOffset = c.readerIndex
        let length = try c.readUInt8("Parameter_Total_Length")
        parameters = try c.readDeclared(Int(length), declaredAt: lengthOffset, "event parameters")
        try c.expectEnd("HCI event")
    }
}
