import NearbyCapture
import NearbyFormats
import NearbyJSON

/// `nearby-conformance survey`: every beacon identity and every advertiser in a set of
/// captures, with first and last heard, count, RSSI and estimated interval
/// (docs/decode-output.md, "Survey"). Add advertisements as `CaptureDecoder` gives them, then
/// read `entries`.
public struct CaptureSurvey: Sendable {
    var beacons: [String: SurveyEntry] = [:]
    var advertisers: [String: SurveyEntry] = [:]

    public init() {}

    /// The identifying fields of each beacon type: the others (TLM, eTLM, unknown frames)
    /// name no beacon and are counted in their advertiser's `frames` only.
    public static let identityFields: [String: [String]] = [
        "eddystone-uid": ["namespace", "instance"], "eddystone-url": ["url"], "eddystone-eid": ["eid"],
        "eddystone-e2ee-eid": ["eid"], "ibeacon": ["uuid", "major", "minor"], "altbeacon": ["beaconId"],
        "token-v1": ["token"],
    ]

    /// Adds one decoded advertisement (those without AD data are passed over, as `decode`
    /// passes them over).
    public mutating func add(_ d: DecodedAdvertisement) {
        let a = d.advertisement
        guard a.hasADData, let data = a.data else { return }
        let address = a.address.description, addressType = a.addressType.description
        let key = address + "/" + addressType
        var advertiser =
            advertisers[key]
            ?? SurveyEntry(
                kind: .advertiser, type: "advertiser",
                identity: ["address": .string(address), "addressType": .string(addressType)])
        advertiser.heard(micros: a.timestampMicros, rssi: a.rssiDBm)
        data.withUnsafeBytes { raw in
            ADStructureWalk.forEach(in: raw.assumingMemoryBound(to: UInt8.self)) { type, payload in
                switch type {
                case 0x08, 0x09: advertiser.names.insert(String(decoding: payload, as: UTF8.self))
                case 0xFF where payload.count >= 2:
                    if let name = AssignedNumbers.companyName(UInt16(payload[0]) | UInt16(payload[1]) << 8) {
                        advertiser.companies.insert(name)
                    }
                default: break
                }
            }
        }
        var types: Set<String> = []
        for frame in d.beacons {
            let type = frame.typeName
            types.insert(type)
            guard let fields = Self.identityFields[type], case .object(let beacon) = BeaconJSON.object(frame) else {
                continue
            }
            var identity: [String: JSONValue] = [:]
            for f in fields { identity[f] = beacon[f] ?? .null }
            let beaconKey = type + JSONValue.object(identity).serialized
            var entry = beacons[beaconKey] ?? SurveyEntry(kind: .beacon, type: type, identity: identity)
            entry.heard(micros: a.timestampMicros, rssi: a.rssiDBm)
            entry.addresses.insert(address)
            beacons[beaconKey] = entry
        }
        if types.isEmpty { types.insert("none") }
        for t in types { advertiser.frames[t, default: 0] += 1 }
        advertisers[key] = advertiser
    }

    /// The beacon rows, then the advertiser rows, each by first heard, then by identity.
    public var entries: [SurveyEntry] {
        func order(_ rows: [SurveyEntry]) -> [SurveyEntry] {
            rows.sorted {
                let (a, b) = ($0.firstMicros ?? .min, $1.firstMicros ?? .min)
                if a != b { return a < b }
                if $0.type != $1.type { return $0.type < $1.type }
                return JSONValue.object($0.identity).serialized < JSONValue.object($1.identity).serialized
            }
        }
        return order(Array(beacons.values)) + order(Array(advertisers.values))
    }
}
