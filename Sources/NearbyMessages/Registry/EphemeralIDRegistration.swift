import NearbySecurity

/// How an Eddystone-EID beacon was registered with the resolver (ENGINE-R2A, docs/spec/eddystone-crypto.md; the
/// Proximity Beacon API's `EphemeralIdRegistration`): its identity key, its rotation
/// exponent K, and its clock (a 32-bit seconds counter) as read at a known time.
public struct EphemeralIDRegistration: Hashable, Sendable {
    /// When the clock was read.
    public enum Time: Hashable, Sendable {
        /// Microseconds in the scenario's time base.
        case scenarioMicros(Int64)
        /// Microseconds since the Unix epoch, placed in the scenario's time base by its origin.
        case unixMicros(Int64)
    }

    /// The 16-byte AES-128 identity key.
    public let identityKey: [UInt8]
    /// K, 0…15: a new EID every 2^K seconds.
    public let rotationExponent: Int
    /// The beacon's clock at `registeredAt`.
    public let initialClockValue: UInt32
    public let registeredAt: Time

    /// - Throws: `SecurityError` for a key that is not 16 bytes or an exponent outside 0…15.
    public init(
        identityKey: [UInt8], rotationExponent: Int, initialClockValue: UInt32, registeredAt: Time
    ) throws(SecurityError) {
        _ = try EIDGenerator(identityKey: identityKey, exponent: rotationExponent)
        self.identityKey = identityKey
        self.rotationExponent = rotationExponent
        self.initialClockValue = initialClockValue
        self.registeredAt = registeredAt
    }

    /// The EID generator (validated at init).
    public var generator: EIDGenerator { try! EIDGenerator(identityKey: identityKey, exponent: rotationExponent) }

    /// The EID the beacon broadcast at registration (the API's `initialEid`).
    public var initialEID: [UInt8] { generator.eid(at: initialClockValue) }

    /// The registration with its time in the scenario's time base, given the Unix time of
    /// scenario time 0.
    public func resolverRegistration(originUnixMicros: Int64) -> EIDRegistration {
        let t: Int64 =
            switch registeredAt {
            case .scenarioMicros(let m): m
            case .unixMicros(let u): u - originUnixMicros
            }
        return EIDRegistration(
            generator: generator, beaconClockAtRegistration: initialClockValue, registeredAtMicros: t)
    }
}
