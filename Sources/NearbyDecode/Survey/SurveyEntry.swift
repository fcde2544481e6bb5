import NearbyJSON

/// One row of `nearby-conformance survey` (docs/decode-output.md, "Survey"): a beacon identity
/// or an advertiser, with when, how often and how strongly it was heard.
public struct SurveyEntry: Sendable {
    /// What a row stands for.
    public enum Kind: String, Sendable {
        /// One beacon identity (an Eddystone-UID's namespace and instance, an iBeacon's
        /// UUID, major and minor, …), whatever address sent it.
        case beacon
        /// One advertiser: an address and its type, whatever it sent.
        case advertiser
    }

    /// Beacon or advertiser.
    public var kind: Kind
    /// The beacon type (`eddystone-uid`, `ibeacon`, …), or `advertiser`.
    public var type: String
    /// The fields that name it: the beacon's identifying fields as `decode` prints them, or
    /// the advertiser's `address` and `addressType`.
    public var identity: [String: JSONValue]
    /// Beacon rows: the addresses that sent it. Advertiser rows: empty.
    public var addresses: Set<String> = []
    /// Advertiser rows: how many of its advertisements carried each beacon type (`none` for
    /// those without a beacon).
    public var frames: [String: Int] = [:]
    /// Advertiser rows: the local names it sent.
    public var names: Set<String> = []
    /// Advertiser rows: the companies of its manufacturer data, by their assigned names.
    public var companies: Set<String> = []
    /// Advertisements (beacon rows: frames) heard.
    public var count = 0
    /// First time heard, µs since the Unix epoch; nil for captures without times.
    public var firstMicros: Int64?
    /// Last time heard, µs since the Unix epoch; nil for captures without times.
    public var lastMicros: Int64?
    /// Every RSSI heard, dBm.
    var rssis: [Int8] = []
    /// The gaps between successive hearings, µs (only those after the first).
    var gaps: [Int64] = []

    /// A row not yet heard.
    public init(kind: Kind, type: String, identity: [String: JSONValue]) {
        self.kind = kind
        self.type = type
        self.identity = identity
    }

    /// Adds a hearing at `micros` (µs since the Unix epoch, nil when the capture has no times)
    /// with `rssi` (dBm, nil when the capture has none).
    public mutating func heard(micros: Int64?, rssi: Int8?) {
        count += 1
        if let rssi { rssis.append(rssi) }
        guard let micros else { return }
        if let last = lastMicros, micros > last { gaps.append(micros - last) }
        if firstMicros == nil || micros < firstMicros! { firstMicros = micros }
        if lastMicros == nil || micros > lastMicros! { lastMicros = micros }
    }

    /// RSSI minimum, median (the lower of the middle two) and maximum, dBm; nil when none.
    public var rssi: (min: Int8, median: Int8, max: Int8)? {
        guard !rssis.isEmpty else { return nil }
        let sorted = rssis.sorted()
        return (sorted.first!, sorted[(sorted.count - 1) / 2], sorted.last!)
    }

    /// The estimated advertising interval, µs: the 10th percentile of the gaps between
    /// successive hearings (a scanner misses some advertisements, which makes gaps that are
    /// multiples of the interval, and rarely hears one early); nil with fewer than two timed
    /// hearings.
    public var intervalMicros: Int64? {
        guard !gaps.isEmpty else { return nil }
        let sorted = gaps.sorted()
        return sorted[(sorted.count - 1) / 10]
    }

    /// The row as a JSON line's object (keys sorted).
    public var json: JSONValue {
        var o: [String: JSONValue] = [
            "kind": .string(kind.rawValue), "type": .string(type), "identity": .object(identity),
            "count": .int(count),
            "first": firstMicros.map { .seconds(micros: $0) } ?? .null,
            "last": lastMicros.map { .seconds(micros: $0) } ?? .null,
            "interval": intervalMicros.map { .seconds(micros: $0) } ?? .null,
            "rssi": rssi.map {
                .object(["min": .int(Int($0.min)), "median": .int(Int($0.median)), "max": .int(Int($0.max))])
            }
                ?? .null,
        ]
        switch kind {
        case .beacon:
            o["addresses"] = .array(addresses.sorted().map(JSONValue.string))
        case .advertiser:
            o["frames"] = .object(frames.mapValues { .int($0) })
            o["names"] = .array(names.sorted().map(JSONValue.string))
            o["companies"] = .array(companies.sorted().map(JSONValue.string))
        }
        return .object(o)
    }
}
