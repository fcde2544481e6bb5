import NearbyBytes
import NearbyCapture
import NearbyFormats
import NearbyJSON
import NearbySecurity

/// What `decode --registry FILE` adds to Eddystone-EID and encrypted-TLM frames
/// (docs/spec/eddystone-crypto.md, its clauses on `decode --registry`):
///
/// - an EID frame gets `resolved`: every registered beacon that broadcast that EID at the
///   advertisement's time (`beaconName`, `periodStart` — the beacon time of the matching
///   rotation period — and `periodOffset` from the expected period), best first; empty when
///   none does;
/// - an eTLM frame gets `telemetry` (the decrypted TLM fields plus `beaconName` and
///   `beaconTime`, the period start of the nonce) or `telemetryError`. Its key and beacon
///   time come from the last EID resolved from the same device address (the specification
///   pairs eTLM with the EID frames of the same address; the period of that EID advanced by
///   the time since, then the periods either side); without one, or when that fails, every
///   registered beacon is tried over its resolution window. A 16-bit MIC matches a wrong
///   key or period by chance once in 65,536 tries, so a search over many beacons can
///   mislead: the pairing is tried first for that reason.
///
/// Times are the capture's (Unix microseconds): registrations are placed in Unix time.
public final class SecureFrameAnnotator {
    public let resolver: EIDResolver
    public let beaconNames: [String]
    private var lastEID: [BluetoothAddress: (beacon: Int, periodStart: UInt32, micros: Int64)] = [:]

    public init(beacons: [(name: String, registration: EIDRegistration)], driftPPM: Double = 150, extraPeriods: Int = 1)
    {
        resolver = EIDResolver(
            registrations: beacons.map(\.registration), driftPPM: driftPPM, extraPeriods: extraPeriods)
        beaconNames = beacons.map(\.name)
    }

    /// The members each beacon of `decoded` gains, by the beacon's index (empty for a frame
    /// that gains none): `resolved` or `resolveError` for an EID frame, `telemetry` or
    /// `telemetryError` for an eTLM frame. Call once per advertisement, in capture order: an
    /// EID resolved here pairs with the eTLM frames of the same address after it.
    package func members(_ decoded: DecodedAdvertisement) -> [[String: JSONValue]] {
        let secure = decoded.beacons.contains {
            switch $0 {
            case .eddystone(.eid), .eddystone(.encryptedTLM): true
            default: false
            }
        }
        guard secure else { return [] }
        let a = decoded.advertisement
        return decoded.beacons.map { beacon in
            var b: [String: JSONValue] = [:]
            switch beacon {
            case .eddystone(.eid(let frame)):
                guard let t = a.timestampMicros else {
                    b["resolved"] = .null
                    b["resolveError"] = .string(
                        "the advertisement has no time, so the beacon's clock cannot be estimated")
                    break
                }
                let matches = resolver.resolve(eid: frame.eid, atMicros: t)
                b["resolved"] = .array(
                    matches.map {
                        .object([
                            "beaconName": .string(beaconNames[$0.beacon]), "periodStart": .int($0.periodStart),
                            "periodOffset": .int($0.periodOffset),
                        ])
                    })
                if let best = matches.first { lastEID[a.address] = (best.beacon, best.periodStart, t) }
            case .eddystone(.encryptedTLM(let frame)):
                switch decrypt(frame, address: a.address, micros: a.timestampMicros) {
                case .success(let (beacon, time, tlm)):
                    var tel: [String: JSONValue] = [:]
                    if case .object(let plain) = BeaconJSON.object(.eddystone(.tlm(tlm))) {
                        for key in ["batteryMillivolts", "temperatureCelsius", "advertisingCount", "uptimeSeconds"] {
                            tel[key] = plain[key]
                        }
                    }
                    tel["beaconName"] = .string(beaconNames[beacon])
                    tel["beaconTime"] = .int(time)
                    b["telemetry"] = .object(tel)
                case .failure(let reason):
                    b["telemetryError"] = .string(reason.text)
                }
            default:
                break
            }
            return b
        }
    }

    /// Adds the fields (`members`) to the beacon objects of `json` (the advertisement's
    /// `decode` object).
    package func annotate(_ decoded: DecodedAdvertisement, _ json: inout JSONValue) {
        guard case .object(var o) = json, case .array(var beacons)? = o["beacons"] else { return }
        for (i, extra) in members(decoded).enumerated() where i < beacons.count && !extra.isEmpty {
            guard case .object(var b) = beacons[i] else { continue }
            b.merge(extra) { $1 }
            beacons[i] = .object(b)
        }
        o["beacons"] = .array(beacons)
        json = .object(o)
    }

    struct Reason: Error { var text: String }

    func decrypt(
        _ frame: EddystoneEncryptedTLM, address: BluetoothAddress, micros: Int64?
    ) -> Result<(Int, UInt32, EddystoneTLM), Reason> {
        guard let t = micros else {
            return .failure(Reason(text: "the advertisement has no time, so the beacon's clock cannot be estimated"))
        }
        var pairedFailure: String?
        if let last = lastEID[address] {
            let g = resolver.registrations[last.beacon].generator
            let estimate = Int64(last.periodStart) + (t - last.micros) / 1_000_000
            let period = Int64(g.periodSeconds)
            for delta in [0, -period, period] {
                let time = g.periodStart(UInt32(truncatingIfNeeded: estimate + delta))
                do {
                    return .success(
                        (last.beacon, time, try EncryptedTelemetry.decrypt(frame, with: g, beaconTime: time)))
                } catch {
                    if delta == 0 { pairedFailure = error.reason }
                }
            }
        }
        for index in resolver.registrations.indices {
            let r = resolver.registrations[index]
            let g = r.generator
            let expected = r.expectedBeaconTime(atMicros: t) >> Int64(g.exponent)
            let w = Int64(resolver.windowPeriods(beacon: index, atMicros: t))
            // Nearest the expected period first: 0, −1, +1, −2, +2, …
            let times = (0...(2 * w)).map { step in
                let offset: Int64 = step % 2 == 0 ? step / 2 : -(step + 1) / 2
                return UInt32(truncatingIfNeeded: (expected + offset) << Int64(g.exponent))
            }
            if let found = EncryptedTelemetry.search(frame, with: g, beaconTimes: times) {
                return .success((index, found.periodStart, found.tlm))
            }
        }
        if let pairedFailure {
            return .failure(Reason(text: "\(pairedFailure); no other registered beacon gives this MIC either"))
        }
        return .failure(
            Reason(
                text:
                    "no EID from this address resolved yet, and no registered beacon's identity key gives MIC "
                    + "\(Hex.encode(frame.mic)) within its window"
            ))
    }
}
