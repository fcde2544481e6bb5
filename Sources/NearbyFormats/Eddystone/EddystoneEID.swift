import NearbyBytes

/// Eddystone-EID (eddystone-eid/README.md; formats.md §1.7): `30 | Tx_Power(int8, dBm at
/// 0 m) | EID(8)`: 10 bytes exactly.
public struct EddystoneEID: Hashable, Sendable {
    public var txPowerDBm: Int8
    /// The 8-byte ephemeral identifier, held inline (no allocation per frame).
    public var eid: ShortBytes

    public init(serviceData: ArraySlice<UInt8>) throws(DecodeError) {
        var c = ByteCursor(serviceData, layer: .eddystone)
        try self.init(&c)
    }

    /// The same, reading the service data at the cursor to its end: the form the AD data
    /// decoder uses, borrowing the record's bytes.
    public init(_ c: inout ByteCursor) throws(DecodeError) {
        c.layer = .eddystone
        try c.skip(1, "EID frame type")
        txPowerDBm = try c.readInt8("EID Tx_Power")
        eid = try c.readShortBytes(8, "EID")
        try c.expectEnd("EID frame")
    }
}

/// The Eddystone frame 0x40 of Google's Find Hub network: an end-to-end encrypted EID of
/// 20 bytes (160-bit curve) or 32 bytes (256-bit curve), optionally followed by one byte
/// of hashed flags. Other lengths are `length-mismatch`.
public struct EddystoneE2EEEID: Hashable, Sendable {
    public var eid: [UInt8]
    public var hashedFlags: UInt8?

    public init(serviceData: ArraySlice<UInt8>) throws(DecodeError) {
        var c = ByteCursor(serviceData, layer: .eddystone)
        try self.init(&c)
    }

    /// The same, reading the service data at the cursor to its end: the form the AD data
    /// decoder uses, borrowing the record's bytes.
    public init(_ c: inout ByteCursor) throws(DecodeError) {
        c.layer = .eddystone
        try c.skip(1, "E2EE-EID frame type")
        let body = c.readableBytes
        switch body {
        case 20, 32:
            eid = try c.readArray(body, "E2EE-EID")
            hashedFlags = nil
        case 21, 33:
            eid = try c.readArray(body - 1, "E2EE-EID")
            hashedFlags = try c.readUInt8("E2EE-EID hashed flags")
        default:
            throw c.error(
                .lengthMismatch, "E2EE-EID frame: \(body) bytes after the frame type, expected 20, 21, 32 or 33")
        }
    }
}
