import NearbyJSON
/// Where every record of a capture went: read = decoded + ignored + malformed.
public struct DecodeAccounting: Sendable, Equatable {
    public var recordsRead = 0
    public var decoded = 0
    public var ignored = 0
    public var malformed = 0
    public var ignoredByReason: [String: Int] = [:]
    public var malformedByReason: [String: Int] = [:]
    /// Advertisements with at least one byte of AD data (the ones `decode` prints).
    public var advertisements = 0
    /// Advertisements without AD data (empty data, ADV_DIRECT_IND, directed reports).
    public var advertisementsWithoutData = 0
    /// Advertisements whose data is incomplete (truncated or unfinished chains).
    public var truncatedAdvertisements = 0
    public var beaconsByType: [String: Int] = [:]

    public init() {}

    /// True when every record read is accounted for exactly once.
    public var balances: Bool {
        recordsRead == decoded + ignored + malformed
            && ignored == ignoredByReason.values.reduce(0, +)
            && malformed == malformedByReason.values.reduce(0, +)
    }

    public mutating func add(_ other: DecodeAccounting) {
        recordsRead += other.recordsRead
        decoded += other.decoded
        ignored += other.ignored
        malformed += other.malformed
        ignoredByReason.merge(other.ignoredByReason, uniquingKeysWith: +)
        malformedByReason.merge(other.malformedByReason, uniquingKeysWith: +)
        advertisements += other.advertisements
        advertisementsWithoutData += other.advertisementsWithoutData
        truncatedAdvertisements += other.truncatedAdvertisements
        beaconsByType.merge(other.beaconsByType, uniquingKeysWith: +)
    }

    public var jsonObject: JSONValue {
        .object([
            "records": .object([
                "read": .int(recordsRead), "decoded": .int(decoded),
                "ignored": .int(ignored), "malformed": .int(malformed),
            ]),
            "ignored": .object(ignoredByReason.mapValues { .int($0) }),
            "malformed": .object(malformedByReason.mapValues { .int($0) }),
            "advertisements": .int(advertisements),
            "advertisementsWithoutData": .int(advertisementsWithoutData),
            "truncatedAdvertisements": .int(truncatedAdvertisements),
            "beacons": .object(beaconsByType.mapValues { .int($0) }),
        ])
    }
}
