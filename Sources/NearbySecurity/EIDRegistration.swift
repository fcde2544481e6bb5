/// A beacon registered with an EID resolver: its identity key and rotation exponent, and the
/// beacon's clock as read at registration (the Proximity Beacon API's
/// `EphemeralIdRegistration.initialClockValue`; EID-CRYPTO-7).
public struct EIDRegistration: Sendable {
    public var generator: EIDGenerator
    /// The beacon's 32-bit seconds counter at registration.
    public var beaconClockAtRegistration: UInt32
    /// When the beacon was registered, in microseconds of the resolver's time base (the
    /// scenario's for replay, Unix time for `decode`).
    public var registeredAtMicros: Int64

    public init(generator: EIDGenerator, beaconClockAtRegistration: UInt32, registeredAtMicros: Int64) {
        self.generator = generator
        self.beaconClockAtRegistration = beaconClockAtRegistration
        self.registeredAtMicros = registeredAtMicros
    }

    /// The beacon time a perfect clock would show at `micros`, in whole seconds, not wrapped
    /// to 32 bits (negative before a counter value of 0): EID-CRYPTO-7.
    public func expectedBeaconTime(atMicros micros: Int64) -> Int64 {
        let elapsed = micros - registeredAtMicros
        let seconds = elapsed >= 0 ? elapsed / 1_000_000 : -((-elapsed + 999_999) / 1_000_000)
        return Int64(beaconClockAtRegistration) + seconds
    }
}
