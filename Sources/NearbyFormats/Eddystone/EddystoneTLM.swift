import NearbyBytes

/// Unencrypted Eddystone-TLM, version 0 (docs/spec/eddystone.md, EDDYSTONE-TLM-):
/// `20 | 00 | VBATT(2, BE, mV; 0 = not supported) | TEMP(2, BE, signed 8.8 °C; 0x8000 =
/// not supported) | ADV_CNT(4, BE) | SEC_CNT(4, BE, 0.1 s since power-up)`: 14 bytes
/// exactly.
public struct EddystoneTLM: EddystoneCursorFrame, Hashable, Sendable {
    public init(serviceData: ArraySlice<UInt8>) throws(DecodeError) { self = try Self.decoding(serviceData) }

    /// VBATT as sent: battery voltage, mV, offsets 2–3 (EDDYSTONE-TLM-4); 0 when the beacon
    /// does not measure it (read through `batteryMillivolts`).
    public var batteryRaw: UInt16
    /// TEMP as sent: 1/256 °C, signed 8.8 fixed point, offsets 4–5 (EDDYSTONE-TLM-6); 0x8000
    /// (`Int16.min`) when the beacon does not measure it (read through `temperatureCelsius`).
    public var temperatureRaw: Int16
    /// ADV_CNT: advertising PDUs sent since power-up or reboot, offsets 6–9 (EDDYSTONE-TLM-8).
    public var advertisingCount: UInt32
    /// Time since power-up in tenths of a second.
    public var uptimeTenths: UInt32

    /// A version 0 frame of these raw field values, as they are sent; no value is checked.
    public init(batteryRaw: UInt16, temperatureRaw: Int16, advertisingCount: UInt32, uptimeTenths: UInt32) {
        self.batteryRaw = batteryRaw
        self.temperatureRaw = temperatureRaw
        self.advertisingCount = advertisingCount
        self.uptimeTenths = uptimeTenths
    }

    /// Reads the service data at the cursor to its end, frame type byte first.
    @inline(__always)
    package init(_ c: inout ByteCursor) throws(DecodeError) {
        c.layer = .eddystone
        try c.skip(2, "TLM frame type and version")
        // EDDYSTONE-TLM-4, EDDYSTONE-TLM-6, EDDYSTONE-TLM-8, EDDYSTONE-TLM-9; EDDYSTONE-TLM-10:
        // `truncated` at s + 2, s + 4, s + 6, s + 10, `trailing-bytes` at s + 14.
        batteryRaw = try c.readUInt16BE("TLM VBATT")
        temperatureRaw = try c.readInt16BE("TLM TEMP")
        advertisingCount = try c.readUInt32BE("TLM ADV_CNT")
        uptimeTenths = try c.readUInt32BE("TLM SEC_CNT")
        try c.expectEnd("TLM frame")
    }

    /// Battery voltage in mV (1 mV/bit); nil when the beacon says "not supported" (0;
    /// EDDYSTONE-TLM-5).
    public var batteryMillivolts: Int? { batteryRaw == 0 ? nil : Int(batteryRaw) }
    /// Temperature in °C (signed 8.8 fixed point, 1/256 °C steps; EDDYSTONE-TLM-6); nil for
    /// 0x8000 (EDDYSTONE-TLM-7).
    public var temperatureCelsius: Double? {
        temperatureRaw == Int16.min ? nil : Double(temperatureRaw) / 256
    }
}
