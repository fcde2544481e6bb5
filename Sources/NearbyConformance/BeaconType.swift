/// A beacon frame's type, as the `type` field of `decode` names it. An open set: a name not
/// listed here is kept as it is.
public struct BeaconType: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The type's name, e.g. `eddystone-uid`.
    public let rawValue: String
    /// Makes a type from its name.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The type's name.
    public var description: String { rawValue }

    /// Eddystone-UID (frame 0x00): `txPower`, `namespace` (10 bytes hex), `instance` (6 bytes hex).
    public static let eddystoneUID = BeaconType(rawValue: "eddystone-uid")
    /// Eddystone-URL (frame 0x10): `txPower`, `scheme`, `encodedUrl`, `url`.
    public static let eddystoneURL = BeaconType(rawValue: "eddystone-url")
    /// Eddystone-TLM, unencrypted (frame 0x20, version 0): battery, temperature, counts.
    public static let eddystoneTLM = BeaconType(rawValue: "eddystone-tlm")
    /// Eddystone-TLM, encrypted (frame 0x20, version 1): `encryptedTlm`, `salt`, `mic`.
    public static let eddystoneEncryptedTLM = BeaconType(rawValue: "eddystone-etlm")
    /// Eddystone-EID (frame 0x30): `txPower`, `eid` (8 bytes hex).
    public static let eddystoneEID = BeaconType(rawValue: "eddystone-eid")
    /// Eddystone frame 0x40 (end-to-end encrypted EID): `eid`, `hashedFlags`.
    public static let eddystoneE2EEEID = BeaconType(rawValue: "eddystone-e2ee-eid")
    /// An Eddystone frame of another type: `frameType`, `data`.
    public static let eddystoneUnknown = BeaconType(rawValue: "eddystone-unknown")
    /// Apple iBeacon: `uuid`, `major`, `minor`, `measuredPower`.
    public static let iBeacon = BeaconType(rawValue: "ibeacon")
    /// AltBeacon: `manufacturer`, `beaconId`, `uuid`, `major`, `minor`, `measuredPower`, `reserved`.
    public static let altBeacon = BeaconType(rawValue: "altbeacon")
    /// The BLE token advertisement, version 1: `token`, `txPower`, `flags`.
    public static let tokenV1 = BeaconType(rawValue: "token-v1")
    /// A token advertisement of another major version: `version`, `data`.
    public static let tokenUnknown = BeaconType(rawValue: "token-unknown")
}
