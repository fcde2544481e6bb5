import NearbyBytes

/// AltBeacon (docs/spec/ibeacon-altbeacon.md, ALTBEACON-): Manufacturer Specific Data of any
/// company whose data is `BE AC | Beacon_ID(20, BE) | Reference_RSSI(int8, dBm at 1 m) |
/// Manufacturer_Reserved(1)` (ALTBEACON-2). The ID is conventionally a 16-byte UUID and two
/// 16-bit values (ALTBEACON-6). A frame without the reserved byte (23 bytes), which
/// android-beacon-library accepts, is accepted with `reserved` nil (ALTBEACON-11).
public struct AltBeacon: Hashable, Sendable {
    /// The company identifier before the beacon code, whichever company it is (ALTBEACON-3).
    public var manufacturer: CompanyIdentifier
    /// 20 bytes.
    public var beaconID: ShortBytes
    /// Reference RSSI: the average signal strength 1 m from the beacon, dBm, signed; byte 22
    /// after the company identifier, as sent, a value above 0 included (ALTBEACON-7,
    /// ALTBEACON-8).
    public var referenceRSSIDBm: Int8
    /// The byte reserved for the manufacturer (byte 23 after the company identifier, 0–255),
    /// as sent (ALTBEACON-9); nil in the 23-byte form without it (ALTBEACON-11).
    public var reserved: UInt8?

    /// Returns nil unless the data starts with the beacon code `BE AC` (ALTBEACON-4).
    public init?(company: CompanyIdentifier, data: ArraySlice<UInt8>) throws(DecodeError) {
        var c = ByteCursor(data, layer: .altBeacon)
        try self.init(company: company, &c)
    }

    /// The same, reading the manufacturer data at the cursor to its end (the cursor is left
    /// where it was when this returns nil).
    @inline(__always)
    package init?(company: CompanyIdentifier, _ c: inout ByteCursor) throws(DecodeError) {
        // ALTBEACON-2, ALTBEACON-4: any company; `BE AC`, or not an AltBeacon.
        guard c.peekUInt8() == 0xBE, c.peekUInt8(ahead: 1) == 0xAC else { return nil }
        c.layer = .altBeacon
        try c.skip(2, "AltBeacon code")
        manufacturer = company  // ALTBEACON-3
        // ALTBEACON-5, ALTBEACON-7; ALTBEACON-10: `truncated` at m + 2, m + 22.
        beaconID = try c.readShortBytes(20, "AltBeacon ID")
        referenceRSSIDBm = try c.readInt8("AltBeacon reference RSSI")
        // ALTBEACON-9, ALTBEACON-11 (absent: nil); ALTBEACON-12: `trailing-bytes` at m + 24.
        reserved = c.isAtEnd ? nil : try c.readUInt8("AltBeacon manufacturer reserved")
        try c.expectEnd("AltBeacon")
    }
}
