import NearbyBytes

/// iBeacon (docs/spec/ibeacon-altbeacon.md, IBEACON-). Manufacturer Specific Data of company
/// 0x004C whose data is exactly the Apple TLV `02 15` followed by `UUID(16) Major(2, BE)
/// Minor(2, BE) Measured_Power(int8, dBm at 1 m)` (IBEACON-2, IBEACON-9). Other Apple TLV
/// types (0x10 Nearby Info, 0x12 Find My, …) are not beacons (IBEACON-4).
public struct IBeacon: Hashable, Sendable {
    /// 16 bytes.
    public var uuid: ShortBytes
    /// Major: bytes 18–19 after the company identifier, big-endian, 0–65535 (IBEACON-6).
    public var major: UInt16
    /// Minor: bytes 20–21 after the company identifier, big-endian, 0–65535 (IBEACON-6).
    public var minor: UInt16
    /// Measured power: the signal strength expected 1 m from the beacon, dBm, signed; byte 22
    /// after the company identifier, as sent (IBEACON-7).
    public var measuredPowerDBm: Int8

    /// Decodes the manufacturer data after the company identifier. Returns nil when the
    /// company is not Apple or the first TLV is not type 0x02 length 0x15; throws when it
    /// is, but the bytes do not match that length.
    public init?(company: CompanyIdentifier, data: ArraySlice<UInt8>) throws(DecodeError) {
        var c = ByteCursor(data, layer: .iBeacon)
        try self.init(company: company, &c)
    }

    /// The same, reading the manufacturer data at the cursor to its end (the cursor is left
    /// where it was when this returns nil).
    @inline(__always)
    package init?(company: CompanyIdentifier, _ c: inout ByteCursor) throws(DecodeError) {
        // IBEACON-2, IBEACON-3, IBEACON-4: Apple data starting `02 15`, or not an iBeacon.
        guard company == .apple, c.peekUInt8() == 0x02, c.peekUInt8(ahead: 1) == 0x15 else { return nil }
        c.layer = .iBeacon
        try c.skip(1, "Apple TLV type")
        let lengthOffset = c.readerIndex
        let length = Int(try c.readUInt8("Apple TLV length"))
        // IBEACON-8: `length-overrun` at m + 1 when fewer than 21 bytes follow.
        var v = try c.carveDeclared(length, declaredAt: lengthOffset, "iBeacon TLV")
        // IBEACON-10: `trailing-bytes` at m + 23 (the reference decoder's reading).
        if !c.isAtEnd {
            throw c.error(
                .trailingBytes,
                "\(c.readableBytes) bytes follow the iBeacon TLV: an iBeacon must be the whole manufacturer data")
        }
        // IBEACON-5, IBEACON-6, IBEACON-7.
        uuid = try v.readShortBytes(16, "iBeacon UUID")
        major = try v.readUInt16BE("iBeacon major")
        minor = try v.readUInt16BE("iBeacon minor")
        measuredPowerDBm = try v.readInt8("iBeacon measured power")
    }
}
