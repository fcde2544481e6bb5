import NearbyBytes

/// Eddystone-EID (docs/spec/eddystone.md, EDDYSTONE-EID-): `30 | Tx_Power(int8, dBm at
/// 0 m) | EID(8)`: 10 bytes exactly (EDDYSTONE-EID-3).
public struct EddystoneEID: EddystoneCursorFrame, Hashable, Sendable {
    public init(serviceData: ArraySlice<UInt8>) throws(DecodeError) { self = try Self.decoding(serviceData) }

    /// Calibrated Tx power at 0 m, dBm, signed; offset 1, as sent (EDDYSTONE-EID-1).
    public var txPowerDBm: Int8
    /// The 8-byte ephemeral identifier, held inline (no allocation per frame).
    public var eid: ShortBytes

    /// Reads the service data at the cursor to its end, frame type byte first.
    @inline(__always)
    package init(_ c: inout ByteCursor) throws(DecodeError) {
        c.layer = .eddystone
        try c.skip(1, "EID frame type")
        // EDDYSTONE-EID-1, EDDYSTONE-EID-2; EDDYSTONE-EID-3: `truncated` at s + 1, s + 2,
        // `trailing-bytes` at s + 10.
        txPowerDBm = try c.readInt8("EID Tx_Power")
        eid = try c.readShortBytes(8, "EID")
        try c.expectEnd("EID frame")
    }
}
