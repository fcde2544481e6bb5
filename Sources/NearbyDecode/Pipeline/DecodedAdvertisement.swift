import NearbyBytes
import NearbyCapture
import NearbyFormats
import NearbyJSON

/// An advertisement with its AD data interpreted.
public struct DecodedAdvertisement: Sendable {
    public var advertisement: Advertisement
    public var contents: AdvertisingDataContents

    public init(_ advertisement: consuming Advertisement) {
        self.advertisement = advertisement
        contents = AdvertisingDataContents()
        decodeContents()
    }

    /// The advertisement inside the decoded advertisement at `decoded`, for a
    /// `RecordDecoder` to build advertisements in (`decodeContents()` then decodes them).
    static func advertisement(
        in decoded: UnsafeMutablePointer<DecodedAdvertisement>
    ) -> UnsafeMutablePointer<Advertisement> {
        let offset = MemoryLayout<DecodedAdvertisement>.offset(of: \.advertisement)!
        return (UnsafeMutableRawPointer(decoded) + offset).assumingMemoryBound(to: Advertisement.self)
    }

    /// Makes `contents` the decoding of the advertisement's AD data, reusing the storage of
    /// the beacon frames (no allocation per advertisement while nothing else holds them;
    /// frames that a consumer kept are left alone, by copy-on-write). The AD data is read
    /// where the record decoder wrote it, not copied.
    mutating func decodeContents() {
        switch advertisement.data {
        case .none:
            contents.removeAll()
        case .some:
            advertisement.data!.withCursorInPlace(layer: .adStructure) {
                AdvertisingDataDecoder.decode(&$0, into: &contents)
            }
        }
    }

    public var beacons: BeaconFrames { contents.beacons }

    /// The advertiser's transmit power: the one the extended report states, else the Tx
    /// Power Level AD structure's, else nil (HCI-EXT-21, AD-10).
    public var txPowerDBm: Int8? { advertisement.txPowerDBm ?? contents.txPowerLevelDBm }
}
