import NearbyBytes

/// Eddystone-UID (docs/spec/eddystone.md, EDDYSTONE-UID-): `00 | Tx_Power(int8, dBm at
/// 0 m, −100…+20) | Namespace(10) | Instance(6) | RFU(2, must be 00 00)`.
/// The 18-byte form without the RFU bytes, which early beacons sent, is accepted
/// (EDDYSTONE-UID-6); a single RFU byte too (EDDYSTONE-UID-7). More than 20 bytes is
/// `trailing-bytes` (EDDYSTONE-UID-9).
public struct EddystoneUID: EddystoneCursorFrame, Hashable, Sendable {
    public init(serviceData: ArraySlice<UInt8>) throws(DecodeError) { self = try Self.decoding(serviceData) }

    /// Calibrated Tx power at 0 m, dBm, signed; offset 1, as sent, a value outside −100…+20
    /// included (EDDYSTONE-UID-1, EDDYSTONE-UID-2).
    public var txPowerDBm: Int8
    /// 10 bytes.
    public var namespace: ShortBytes
    /// 6 bytes.
    public var instance: ShortBytes
    /// The RFU bytes as sent (0–2; empty for the 18-byte form; EDDYSTONE-UID-5).
    public var reserved: ShortBytes

    /// A UID frame of these fields: `namespace` 10 bytes, `instance` 6, and `reserved` the RFU
    /// bytes as sent (0–2 bytes; `00 00` unless given).
    public init(txPowerDBm: Int8, namespace: ShortBytes, instance: ShortBytes, reserved: ShortBytes = [0, 0]) {
        self.txPowerDBm = txPowerDBm
        self.namespace = namespace
        self.instance = instance
        self.reserved = reserved
    }

    /// Reads the service data at the cursor to its end, frame type byte first.
    @inline(__always)
    package init(_ c: inout ByteCursor) throws(DecodeError) {
        c.layer = .eddystone
        try c.skip(1, "UID frame type")
        // EDDYSTONE-UID-1, EDDYSTONE-UID-3; EDDYSTONE-UID-8: `truncated` at s + 1, s + 2, s + 12.
        txPowerDBm = try c.readInt8("UID Tx_Power")
        namespace = try c.readShortBytes(10, "UID namespace")
        instance = try c.readShortBytes(6, "UID instance")
        // EDDYSTONE-UID-5, EDDYSTONE-UID-6, EDDYSTONE-UID-7: 0, 1 or 2 reserved bytes, as sent.
        reserved = try c.readShortBytes(min(c.readableBytes, 2), "UID RFU")
        // EDDYSTONE-UID-9: `trailing-bytes` at s + 20.
        try c.expectEnd("UID frame")
    }
}
