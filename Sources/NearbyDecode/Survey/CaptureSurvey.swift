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
        guard a.hasADData, case .object(let line) = d.jsonObject(file: "") else { return }
        let address = line["address"] ?? .null, addressType = line["addressType"] ?? .null
        let key = (address.stringValue ?? "") + "/" + (addressType.stringValue ?? "")
        var advertiser =
            advertisers[key]
            ?? SurveyEntry(
                kind: .advertiser, type: "advertiser", identity: ["address": address, "addressType": addressType])
        advertiser.heard(micros: a.timestampMicros, rssi: a.rssiDBm)
        if case .array(let ad)? = line["ad"] {
            for case .object(let entry) in ad {
                if case .string(let name)? = entry["name"] { advertiser.names.insert(name) }
                if case .string(let company)? = entry["companyName"] { advertiser.companies.insert(company) }
            }
        }
        var types: Set<String> = []
        if case .array(let list)? = line["beacons"] {
            for case .object(let beacon) in list {
                guard case .string(let type)? = beacon["type"] else { continue }
                types.insert(type)
                guard let fields = Self.identityFields[type] else { continue }
                var identity: [String: JSONValue] = [:]
                for f in fields { identity[f] = beacon[f] ?? .null }
                let beaconKey = type + JSONValue.object(identity).serialized
                var entry = beacons[beaconKey] ?? SurveyEntry(kind: .beacon, type: type, identity: identity)
                entry.heard(micros: a.timestampMicros, rssi: a.rssiDBm)
                if let s = address.stringValue { entry.addresses.insert(s) }
                beacons[beaconKey] = entry
            }
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

extension JSONValue {
    fileprivate var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }
}
