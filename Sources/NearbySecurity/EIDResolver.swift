import Synchronization

/// Maps an observed EID at an observed time to the registered beacons that broadcast it
/// (docs/spec/eddystone-crypto.md, EID-CRYPTO-7 to EID-CRYPTO-11).
///
/// For each beacon the resolver works out the rotation period its clock should be in (from
/// the clock value and time of registration) and compares the EIDs of a window of periods
/// around it: `extraPeriods` + ⌈(driftPPM·10⁻⁶·|elapsed| + 1 s) / 2^K⌉ periods either side, so
/// a clock off by the specification's 150 ppm since registration (and by the second a clock
/// reading can be off) still resolves, as does an EID the beacon switched a little late
/// (the specification lets it randomise the switch within the period).
///
/// Every beacon whose EID matches is returned (EID-CRYPTO-10): two beacons sharing an identity key (a cloned
/// or re-registered beacon) collide, and the caller sees both. Temporary keys and EIDs are
/// cached; the caches are bounded and shared by all threads.
public final class EIDResolver: Sendable {
    /// One match.
    public struct Match: Hashable, Sendable, Comparable {
        /// Index of the beacon in `registrations`.
        public var beacon: Int
        /// The start of the rotation period (beacon time) whose EID matched.
        public var periodStart: UInt32
        /// Periods between the matching one and the expected one: positive when the beacon's
        /// clock runs ahead.
        public var periodOffset: Int

        public static func < (a: Match, b: Match) -> Bool {
            (abs(a.periodOffset), a.beacon, a.periodOffset) < (abs(b.periodOffset), b.beacon, b.periodOffset)
        }
    }

    public let registrations: [EIDRegistration]
    /// Clock error allowed per unit of elapsed time, in parts per million (default 150).
    public let driftPPM: Double
    /// Periods searched beyond the drift allowance on each side (default 1).
    public let extraPeriods: Int

    private struct CacheKey: Hashable {
        var beacon: Int32
        var value: UInt32
    }
    private struct Cache {
        var temporaryKeys: [CacheKey: AES128] = [:]
        var eids: [CacheKey: UInt64] = [:]
    }
    private let cache = Mutex(Cache())
    static let cacheLimit = 1 << 16

    public init(registrations: [EIDRegistration], driftPPM: Double = 150, extraPeriods: Int = 1) {
        precondition(
            driftPPM >= 0 && driftPPM.isFinite && extraPeriods >= 0, "a drift allowance is finite and non-negative")
        self.registrations = registrations
        self.driftPPM = driftPPM
        self.extraPeriods = extraPeriods
    }

    /// How many periods either side of the expected one are searched for beacon `index` at
    /// `micros` (EID-CRYPTO-8).
    public func windowPeriods(beacon index: Int, atMicros micros: Int64) -> Int {
        let r = registrations[index]
        let elapsedSeconds = Double(micros - r.registeredAtMicros).magnitude / 1e6
        let uncertainty = driftPPM * 1e-6 * elapsedSeconds + 1
        return extraPeriods + Int((uncertainty / Double(r.generator.periodSeconds)).rounded(.up))
    }

    /// The beacons that broadcast `eid` at `micros`, best first (nearest the expected period,
    /// then registration order).
    public func resolve(eid: some Collection<UInt8>, atMicros micros: Int64) -> [Match] {
        guard eid.count == 8 else { return [] }  // EID-CRYPTO-11
        let wanted = eid.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        var matches: [Match] = []
        for index in registrations.indices {
            let r = registrations[index]
            let k = Int64(r.generator.exponent)
            let expected = r.expectedBeaconTime(atMicros: micros) >> k  // floor division
            let w = Int64(windowPeriods(beacon: index, atMicros: micros))
            // A window wider than the 32-bit clock's 2^(32−K) periods would visit a period twice
            // (EID-CRYPTO-9).
            let span = min(w, (Int64(1) << (32 - k)) / 2 - 1)
            for period in (expected - span)...(expected + span) {
                let start = UInt32(truncatingIfNeeded: period << k)
                if eidValue(beacon: index, periodStart: start) == wanted {
                    matches.append(Match(beacon: index, periodStart: start, periodOffset: Int(period - expected)))
                }
            }
        }
        return matches.sorted()  // EID-CRYPTO-10: nearest the expected period, then registration order
    }

    /// The EID of beacon `index` for the period starting at `periodStart`, through the caches.
    public func eid(beacon index: Int, periodStart: UInt32) -> [UInt8] {
        let v = eidValue(beacon: index, periodStart: periodStart)
        return (0..<8).map { UInt8(truncatingIfNeeded: v >> (56 - 8 * UInt64($0))) }
    }

    private func eidValue(beacon index: Int, periodStart: UInt32) -> UInt64 {
        let key = CacheKey(beacon: Int32(index), value: periodStart)
        if let v = cache.withLock({ $0.eids[key] }) { return v }
        let generator = registrations[index].generator
        let tkKey = CacheKey(beacon: Int32(index), value: periodStart >> 16)
        let tk: AES128
        if let cached = cache.withLock({ $0.temporaryKeys[tkKey] }) {
            tk = cached
        } else {
            // Cannot fail: a temporary key is one AES block.
            tk = try! AES128(generator.temporaryKey(at: periodStart))
        }
        let v = generator.eid(at: periodStart, temporaryKey: tk).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        cache.withLock {
            if $0.eids.count >= Self.cacheLimit { $0.eids.removeAll(keepingCapacity: true) }
            if $0.temporaryKeys.count >= Self.cacheLimit { $0.temporaryKeys.removeAll(keepingCapacity: true) }
            $0.eids[key] = v
            $0.temporaryKeys[tkKey] = tk
        }
        return v
    }
}
