import NearbyBytes
import NearbyCapture
import NearbyFormats
import NearbyJSON

/// An advertisement with its AD data interpreted.
public struct DecodedAdvertisement: Sendable {
    public var advertisement: Advertisement
    public var contents: AdvertisingDataContents

    public init(_ advertisement: consuming Advertisement) {
        contents = AdvertisingDataContents()
        Self.decode(advertisement, into: &contents)
        self.advertisement = advertisement
    }

    /// Makes this the decoding of `advertisement`, reusing the storage of the beacon array
    /// (no allocation per advertisement while nothing else holds the array; one that a
    /// consumer kept is left alone, by copy-on-write): how `CaptureDecoder` hands out the
    /// advertisements of a capture.
    /// The advertisement is taken from `advertisement` by a swap, which leaves the previous
    /// one in its place.
    public mutating func replace(taking advertisement: inout Advertisement) {
        swap(&self.advertisement, &advertisement)
        contents.removeAll()
        Self.decode(self.advertisement, into: &contents)
    }

    /// Decodes the AD data of a borrowed advertisement into `contents` (empty).
    private static func decode(_ advertisement: borrowing Advertisement, into contents: inout AdvertisingDataContents) {
        if let data = advertisement.data { AdvertisingDataDecoder.decode(data, into: &contents) }
    }

    public var beacons: [BeaconFrame] { contents.beacons }

    /// The advertiser's transmit power: the one the extended report states, else the Tx
    /// Power Level AD structure's, else nil.
    public var txPowerDBm: Int8? { advertisement.txPowerDBm ?? contents.txPowerLevelDBm }

    /// The `decode` output line of this advertisement, as a JSON object (keys sorted when
    /// serialised). Field meanings are documented in docs/decode-output.md.
    public func jsonObject(file: String) -> JSONValue {
        let a = advertisement
        var o: [String: JSONValue] = [
            "file": .string(file),
            "record": .int(a.record),
            "time": a.timestampMicros.map(JSONValue.seconds(micros:)) ?? .null,
            "source": .string(a.source.description),
            "eventType": .string(a.eventTypeName),
            "eventTypeRaw": .int(a.eventTypeRaw),
            "scanResponse": .bool(a.isScanResponse),
            "address": .string(a.address.description),
            "addressType": .string(a.addressType.description),
            "rssi": .optionalInt(a.rssiDBm),
            "txPower": .optionalInt(txPowerDBm),
            "channel": .optionalInt(a.channelIndex),
            "data": a.data.map { .string(Hex.encode($0)) } ?? .null,
            "beacons": .array(beacons.map(BeaconJSON.object)),
        ]
        if let d = a.extended {
            o["extended"] = .object([
                "primaryPhy": .int(d.primaryPHY),
                "secondaryPhy": .int(d.secondaryPHY),
                "sid": .int(d.sid),
                "periodicInterval": .int(d.periodicAdvertisingInterval),
                "dataStatus": .int(d.dataStatus),
                "fragments": .int(d.fragments),
                "truncated": .bool(d.truncated),
            ])
        }
        if let direct = a.directAddress {
            o["directAddress"] = .string(direct.description)
            o["directAddressType"] = .string(a.directAddressType?.description ?? "")
        }
        if !contents.errors.isEmpty {
            o["errors"] = .array(
                contents.errors.map {
                    .object([
                        "layer": .string($0.layer.description), "code": .string($0.code.rawValue),
                        "offset": .int($0.offset), "reason": .string($0.reason),
                    ])
                })
        }
        return .object(o)
    }
}
