import NearbyBytes

/// Eddystone-UID (eddystone-uid/README.md; formats.md §1.3): `00 | Tx_Power(int8, dBm at
/// 0 m, −100…+20) | Namespace(10) | Instance(6) | RFU(2, must be 00 00)`.
/// The 18-byte form without the RFU bytes, which early beacons sent, is accepted; a
/// single RFU byte too. More than 20 bytes is `trailing-bytes`.
public struct EddystoneUID: Hashable, Sendable {
    public var txPowerDBm: Int8
    public var namespace: [UInt8]
    public var instance: [UInt8]
    /// The RFU bytes as sent (empty for the 18-byte form).
    public var reserved: [UInt8]

    public init(txPowerDBm: Int8, namespace: [UInt8], instance: [UInt8], reserved: [UInt8] = [0, 0]) {
        self.txPowerDBm = txPowerDBm
        self.namespace = namespace
        self.instance = instance
        self.reserved = reserved
    }

    /// Decodes the service data after the UUID, frame type byte included.
    public init(serviceData: ArraySlice<UInt8>) throws(DecodeError) {
        var c = ByteCursor(serviceData, layer: .eddystone)
        try c.skip(1, "UID frame type")
        txPowerDBm = try c.readInt8("UID Tx_Power")
        namespace = Array(try c.readSlice(10, "UID namespace"))
        instance = Array(try c.readSlice(6, "UID instance"))
        let rest = c.readableBytes
        reserved = Array(try c.readSlice(min(rest, 2), "UID RFU"))
        try c.expectEnd("UID frame")
    }
}
