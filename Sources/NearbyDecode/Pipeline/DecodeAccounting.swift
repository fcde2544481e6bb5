import NearbyBytes
import NearbyCapture
import NearbyJSON

/// Where every record of a capture went: read = decoded + ignored + malformed (RECORDS-4).
public struct DecodeAccounting: Sendable, Equatable {
    public var recordsRead = 0
    public var decoded = 0
    public var ignored = 0
    public var malformed = 0
    public var ignoredByReason: [String: Int] = [:]
    public var malformedByReason: [String: Int] = [:]
    /// Advertisements with at least one byte of AD data (the ones `decode` prints; RECORDS-9).
    public var advertisements = 0
    /// Advertisements without AD data (empty data, ADV_DIRECT_IND, directed reports).
    public var advertisementsWithoutData = 0
    /// Advertisements whose data is incomplete (truncated or unfinished chains).
    public var truncatedAdvertisements = 0
    public var beaconsByType: [String: Int] = [:]
    /// Bytes of damaged container passed over to reach the next plausible record
    /// (DAMAGE-16); each stretch is one malformed record.
    public var bytesSkipped: Int64 = 0
    /// Times reading went on after skipping damage (a stretch skipped to the end of the
    /// file is not one).
    public var resynchronizations = 0

    public init() {}

    /// Layers whose faults mean a record could not be read or framed at all: the container
    /// and the link layers under the advertising reports. Faults above them (AD structures,
    /// beacon frames) are findings about what an advertiser sent, in a record that was read.
    public static let undecodableLayers: Set<String> = Set(
        [
            DecodeError.Layer.file, .pcap, .btsnoop, .hexText, .h4, .h4PseudoHeader, .linuxMonitor, .hciEvent,
            .advertisingReport, .extendedAdvertisingReport, .directedAdvertisingReport, .linkLayer, .lePseudoHeader,
            .nordicSniffer,
        ].map(\.description))

    /// Records that could not be decoded: malformed in a layer of `undecodableLayers`, or
    /// ignored because their link type or datalink is not supported. `decode` exits with
    /// status 2 when this is not 0 (DAMAGE-18).
    public var recordsNotDecoded: Int {
        let malformedBelow = malformedByReason.reduce(0) { sum, entry in
            let layer = entry.key.split(separator: "/").first.map(String.init) ?? entry.key
            return sum + (Self.undecodableLayers.contains(layer) ? entry.value : 0)
        }
        return malformedBelow + (ignoredByReason[IgnoreReason.unsupportedEncapsulation.rawValue] ?? 0)
    }

    /// True when every record read is accounted for exactly once.
    public var balances: Bool {
        recordsRead == decoded + ignored + malformed
            && ignored == ignoredByReason.values.reduce(0, +)
            && malformed == malformedByReason.values.reduce(0, +)
    }

    /// What could not be decoded, in a sentence for people (records not decoded, bytes of
    /// damage skipped, resynchronisations), or nil when everything was.
    public var lossSummary: String? {
        let notDecoded = recordsNotDecoded
        guard notDecoded > 0 || bytesSkipped > 0 else { return nil }
        var parts = ["\(notDecoded) of \(recordsRead) records could not be decoded"]
        if let unsupported = ignoredByReason[IgnoreReason.unsupportedEncapsulation.rawValue], unsupported > 0 {
            parts[0] += " (\(unsupported) in a link type or datalink that is not supported)"
        }
        if bytesSkipped > 0 {
            parts.append(
                "\(bytesSkipped) bytes of damage skipped, \(resynchronizations) "
                    + "resynchronisation\(resynchronizations == 1 ? "" : "s")"
            )
        }
        return parts.joined(separator: "; ")
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
        bytesSkipped += other.bytesSkipped
        resynchronizations += other.resynchronizations
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
            "skipped": .object(["bytes": .int(Int(bytesSkipped)), "resynchronizations": .int(resynchronizations)]),
        ])
    }
}
