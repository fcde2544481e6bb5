import NearbyBytes
import NearbySecurity
import Testing

/// Resolution of observed EIDs to registered beacons: clock drift within the
/// specification's 150 ppm, the window's edge, colliding beacons, the temporary key's
/// rollover and the 32-bit clock's wrap.
@Suite struct EIDResolverTests {
    static let ik = Hex.decode("0102030405060708090a111213141516")!
    static let day: Int64 = 86_400_000_000

    static func registration(_ k: Int, clock: UInt32, at micros: Int64 = 0, key: [UInt8] = ik) -> EIDRegistration {
        EIDRegistration(
            generator: try! EIDGenerator(identityKey: key, exponent: k), beaconClockAtRegistration: clock,
            registeredAtMicros: micros)
    }

    /// The beacon's own clock after `micros` of observer time, running `ppm` fast.
    static func driftedClock(_ r: EIDRegistration, after micros: Int64, ppm: Double) -> UInt32 {
        let seconds = Double(micros) / 1e6 * (1 + ppm * 1e-6)
        return UInt32(truncatingIfNeeded: Int64(r.beaconClockAtRegistration) + Int64(seconds.rounded(.down)))
    }

    // EID-CRYPTO-7, EID-CRYPTO-8.
    @Test(arguments: [0, 4, 10, 15], [150.0, -150.0])
    func aClockDrifting150ppmFor30DaysStillResolves(k: Int, ppm: Double) {
        let r = Self.registration(k, clock: 100_000)
        let resolver = EIDResolver(registrations: [r])
        let now = 30 * Self.day
        let clock = Self.driftedClock(r, after: now, ppm: ppm)
        let matches = resolver.resolve(eid: r.generator.eid(at: clock), atMicros: now)
        #expect(matches.map(\.beacon) == [0], "K = \(k), \(ppm) ppm")
        #expect(matches.first?.periodStart == r.generator.periodStart(clock))
        // 388.8 s of drift is this many periods (rounded towards the drift), give or take one.
        let periods = Int((388.8 / Double(1 << k)).rounded(.down))
        #expect(abs(abs(matches.first?.periodOffset ?? 99) - periods) <= 1)
    }

    // EID-CRYPTO-8.
    @Test func anEIDJustOutsideTheWindowDoesNotResolve() {
        let r = Self.registration(10, clock: 100_000)
        let now = 30 * Self.day
        let resolver = EIDResolver(registrations: [r])
        // 1 extra period + ⌈(388.8 s + 1 s) / 1024 s⌉ = 2 periods either side.
        #expect(resolver.windowPeriods(beacon: 0, atMicros: now) == 2)
        let expected = r.expectedBeaconTime(atMicros: now)
        for (offset, resolves) in [(-3, false), (-2, true), (2, true), (3, false)] {
            let t = UInt32(expected + Int64(offset) * 1024)
            let m = resolver.resolve(eid: r.generator.eid(at: t), atMicros: now)
            #expect(m.isEmpty == !resolves, "offset \(offset) periods")
            if resolves { #expect(m.first?.periodOffset == offset) }
        }
        // The window is configurable: one more extra period reaches it.
        let wider = EIDResolver(registrations: [r], extraPeriods: 2)
        #expect(
            wider.resolve(eid: r.generator.eid(at: UInt32(expected + 3 * 1024)), atMicros: now).first?.periodOffset == 3
        )
    }

    // EID-CRYPTO-8.
    @Test func theWindowGrowsWithTimeSinceRegistration() {
        let resolver = EIDResolver(registrations: [Self.registration(0, clock: 0, at: 5_000_000)])
        #expect(resolver.windowPeriods(beacon: 0, atMicros: 5_000_000) == 2)
        #expect(resolver.windowPeriods(beacon: 0, atMicros: 5_000_000 + 30 * Self.day) == 1 + 390)
        #expect(
            resolver.windowPeriods(beacon: 0, atMicros: 5_000_000 - 30 * Self.day) == 1 + 390, "before registration too"
        )
        #expect(
            EIDResolver(registrations: [Self.registration(0, clock: 0)], driftPPM: 0, extraPeriods: 0).windowPeriods(
                beacon: 0, atMicros: Self.day) == 1)
    }

    // EID-CRYPTO-10.
    @Test func twoBeaconsWhoseEIDsCollideAreBothCandidates() {
        // A cloned beacon: the same identity key registered twice. In the second's clock the
        // same EID falls 3 periods from where it is expected, so it is the second candidate.
        let a = Self.registration(10, clock: 50_000)
        let b = Self.registration(10, clock: 50_000 - 3 * 1024)
        let other = Self.registration(10, clock: 50_000, key: [UInt8](repeating: 7, count: 16))
        let resolver = EIDResolver(registrations: [other, a, b], extraPeriods: 3)
        let m = resolver.resolve(eid: a.generator.eid(at: 50_000), atMicros: 0)
        #expect(m.map(\.beacon) == [1, 2])
        #expect(m.map(\.periodOffset) == [0, 3])
        #expect(m.allSatisfy { $0.periodStart == a.generator.periodStart(50_000) })
    }

    // EID-CRYPTO-2, EID-CRYPTO-7.
    @Test func resolutionCrossesTheTemporaryKeyRollover() {
        // Nordic's firmware starts its clock at 65280, 256 s before the temporary key changes.
        let r = Self.registration(8, clock: 65_280, at: 1_000_000)
        let resolver = EIDResolver(registrations: [r])
        for seconds: Int64 in [0, 255, 256, 257, 600] {
            let clock = UInt32(65_280 + seconds)
            let m = resolver.resolve(eid: r.generator.eid(at: clock), atMicros: 1_000_000 + seconds * 1_000_000)
            #expect(
                m.first?.periodOffset == 0 && m.first?.periodStart == r.generator.periodStart(clock),
                "\(seconds) s after registration")
        }
    }

    // EID-CRYPTO-4, EID-CRYPTO-9.
    @Test func resolutionCrossesTheWrapOfThe32BitClock() {
        let r = Self.registration(4, clock: 0xFFFF_FF00)
        let resolver = EIDResolver(registrations: [r])
        let m = resolver.resolve(eid: r.generator.eid(at: 0x100), atMicros: 512_000_000)
        #expect(m.count == 1 && m.first?.periodStart == 0x100 && m.first?.periodOffset == 0)
    }

    @Test func cachedAndFreshComputationsAgree() {
        let r = Self.registration(10, clock: 65_000)
        let resolver = EIDResolver(registrations: [r])
        for t: UInt32 in [64_512, 65_536, 66_560, 64_512] {
            #expect(resolver.eid(beacon: 0, periodStart: t) == r.generator.eid(at: t))
        }
    }

    // EID-CRYPTO-11.
    @Test func aMalformedOrUnknownEIDResolvesToNothing() {
        let resolver = EIDResolver(registrations: [Self.registration(10, clock: 0)])
        #expect(resolver.resolve(eid: [1, 2, 3], atMicros: 0).isEmpty)
        #expect(resolver.resolve(eid: [UInt8](repeating: 0, count: 8), atMicros: 0).isEmpty)
        #expect(EIDResolver(registrations: []).resolve(eid: Hex.decode("a9b76a71c5f89290")!, atMicros: 0).isEmpty)
    }
}
