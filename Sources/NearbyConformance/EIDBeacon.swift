import NearbySecurity

/// An Eddystone-EID beacon's secret state: what it broadcasts at any time of its clock
/// (docs/spec/eddystone-crypto.md, EID-CRYPTO-1 to EID-CRYPTO-6).
///
/// ```swift
/// let beacon = try EIDBeacon(identityKey: key, rotationExponent: 10)
/// let eid = beacon.eid(atBeaconTime: 3_600)   // 8 bytes
/// ```
public struct EIDBeacon: Sendable {
    let generator: EIDGenerator

    /// A beacon with a 16-byte identity key (an AES-128 key) and rotation exponent K, 0…15
    /// (a new EID every 2^K seconds). Throws `eid/invalid-key` for a key of another length
    /// or an exponent out of range (EID-CRYPTO-5, EID-CRYPTO-6).
    public init(identityKey: [UInt8], rotationExponent: Int) throws(ConformanceError) {
        do {
            generator = try EIDGenerator(identityKey: identityKey, exponent: rotationExponent)
        } catch {
            throw ConformanceError(.invalidKey, file: nil, "\(error)")
        }
    }

    /// The rotation period: 2^K seconds, 1 to 32,768.
    public var periodSeconds: UInt32 { generator.periodSeconds }

    /// The 8-byte EID broadcast at `beaconTime`, the beacon's 32-bit seconds counter
    /// (EID-CRYPTO-2, EID-CRYPTO-3, EID-CRYPTO-4).
    public func eid(atBeaconTime beaconTime: UInt32) -> [UInt8] { generator.eid(at: beaconTime) }

    /// The start of the rotation period holding `beaconTime`: the time with its low K bits cleared.
    public func periodStart(atBeaconTime beaconTime: UInt32) -> UInt32 { generator.periodStart(beaconTime) }
}
