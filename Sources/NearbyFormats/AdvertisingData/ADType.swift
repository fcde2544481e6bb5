/// Advertising Data types (AD-5, AD-8 to AD-10; Bluetooth Assigned Numbers §2.3; Core Supplement Part A).
/// An open code space: unknown types survive with their number.
public struct ADType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The AD type byte, as sent (0x00–0xFF): the second byte of the structure.
    public let rawValue: UInt8
    /// The AD type `rawValue`, assigned or not.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Flags (0x01): one byte of discovery mode bits (Core Supplement Part A §1.3); passed
    /// over by the decoder (AD-5).
    public static let flags = ADType(rawValue: 0x01)
    /// Incomplete List of 16-bit Service UUIDs (0x02): 2 bytes per UUID, little-endian (Core
    /// Supplement Part A §1.1); passed over by the decoder (AD-5).
    public static let incompleteList16BitUUIDs = ADType(rawValue: 0x02)
    /// Complete List of 16-bit Service UUIDs (0x03): 2 bytes per UUID, little-endian. Eddystone
    /// beacons name 0xFEAA in it (EDDYSTONE-FRAME-5); the decoder passes it over (AD-5) and
    /// does not require it (AD-12).
    public static let completeList16BitUUIDs = ADType(rawValue: 0x03)
    /// Shortened Local Name (0x08): UTF-8 (Core Supplement Part A §1.2); passed over by the
    /// decoder (AD-5).
    public static let shortenedLocalName = ADType(rawValue: 0x08)
    /// Complete Local Name (0x09): UTF-8 (Core Supplement Part A §1.2); passed over by the
    /// decoder (AD-5).
    public static let completeLocalName = ADType(rawValue: 0x09)
    /// Tx Power Level: int8, dBm (AD-10; Core Supplement Part A §1.5).
    public static let txPowerLevel = ADType(rawValue: 0x0A)
    /// Service Data with a 16-bit UUID (little-endian), then the service's data.
    public static let serviceData16BitUUID = ADType(rawValue: 0x16)
    /// Service Data with a 32-bit UUID (0x20): the UUID (4, little-endian), then the service's
    /// data; passed over by the decoder (AD-5).
    public static let serviceData32BitUUID = ADType(rawValue: 0x20)
    /// Service Data with a 128-bit UUID (0x21): the UUID (16, little-endian), then the
    /// service's data; passed over by the decoder (AD-5).
    public static let serviceData128BitUUID = ADType(rawValue: 0x21)
    /// Manufacturer Specific Data: company identifier (2, little-endian), then its data.
    public static let manufacturerSpecificData = ADType(rawValue: 0xFF)

    /// The type byte in lower-case hexadecimal without leading zeros: `0x16`, `0xff`, `0xa`.
    public var description: String { "0x" + String(rawValue, radix: 16) }
}

/// Bluetooth SIG company identifiers (Assigned Numbers §7). An open code space.
public struct CompanyIdentifier: RawRepresentable, Hashable, Sendable {
    /// The identifier, read least significant byte first (AD-9): bytes `4C 00` are 0x004C.
    public let rawValue: UInt16
    /// The company identifier `rawValue`, assigned or not.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// Apple (0x004C): the only company whose manufacturer data can be an iBeacon (IBEACON-2,
    /// IBEACON-3).
    public static let apple = CompanyIdentifier(rawValue: 0x004C)
    /// Radius Networks (0x0118), the author of AltBeacon; an AltBeacon may carry any company's
    /// identifier (ALTBEACON-2).
    public static let radiusNetworks = CompanyIdentifier(rawValue: 0x0118)
}

/// 16-bit service UUIDs used here (Assigned Numbers §3.11, member UUIDs).
public struct ServiceUUID16: RawRepresentable, Hashable, Sendable {
    /// The UUID, read least significant byte first (AD-8): bytes `AA FE` are 0xFEAA.
    public let rawValue: UInt16
    /// The 16-bit UUID `rawValue`, assigned or not.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// Google, Eddystone (0xFEAA).
    public static let eddystone = ServiceUUID16(rawValue: 0xFEAA)
    /// Google, "Copresence" (0xFEF3): Nearby Messages tokens (this project's token
    /// advertisement v1) and Nearby Connections advertisements share it (docs/spec/ble-token.md).
    public static let copresence = ServiceUUID16(rawValue: 0xFEF3)
}
