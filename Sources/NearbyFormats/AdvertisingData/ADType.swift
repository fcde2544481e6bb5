/// Advertising Data types (AD-5, AD-8 to AD-10; Bluetooth Assigned Numbers §2.3; Core Supplement Part A).
/// An open code space: unknown types survive with their number.
public struct ADType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let flags = ADType(rawValue: 0x01)
    public static let incompleteList16BitUUIDs = ADType(rawValue: 0x02)
    public static let completeList16BitUUIDs = ADType(rawValue: 0x03)
    public static let shortenedLocalName = ADType(rawValue: 0x08)
    public static let completeLocalName = ADType(rawValue: 0x09)
    /// Tx Power Level: int8, dBm (AD-10; Core Supplement Part A §1.5).
    public static let txPowerLevel = ADType(rawValue: 0x0A)
    /// Service Data with a 16-bit UUID (little-endian), then the service's data.
    public static let serviceData16BitUUID = ADType(rawValue: 0x16)
    public static let serviceData32BitUUID = ADType(rawValue: 0x20)
    public static let serviceData128BitUUID = ADType(rawValue: 0x21)
    /// Manufacturer Specific Data: company identifier (2, little-endian), then its data.
    public static let manufacturerSpecificData = ADType(rawValue: 0xFF)

    public var description: String { "0x" + String(rawValue, radix: 16) }
}

/// Bluetooth SIG company identifiers (Assigned Numbers §7). An open code space.
public struct CompanyIdentifier: RawRepresentable, Hashable, Sendable {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let apple = CompanyIdentifier(rawValue: 0x004C)
    public static let radiusNetworks = CompanyIdentifier(rawValue: 0x0118)
}

/// 16-bit service UUIDs used here (Assigned Numbers §3.11, member UUIDs).
public struct ServiceUUID16: RawRepresentable, Hashable, Sendable {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// Google, Eddystone (0xFEAA).
    public static let eddystone = ServiceUUID16(rawValue: 0xFEAA)
    /// Google, "Copresence" (0xFEF3): Nearby Messages tokens (this project's token
    /// advertisement v1) and Nearby Connections advertisements share it (docs/spec/ble-token.md).
    public static let copresence = ServiceUUID16(rawValue: 0xFEF3)
}
