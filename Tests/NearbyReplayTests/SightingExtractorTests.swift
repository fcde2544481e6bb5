import NearbyBytes
import NearbyCapture
import NearbyDecode
import NearbyMessages
import NearbyReplay
import Testing

/// The identities a replay feeds the engine, from AD data written out by hand (Eddystone
/// spec, Apple's iBeacon layout, AltBeacon spec), against identities packed from the
/// concatenated bytes: UID namespace then instance, iBeacon UUID then big-endian major and
/// minor, AltBeacon's 20-byte ID.
@Suite struct SightingExtractorTests {
    func identities(_ data: [UInt8]) -> [SightingIdentity] {
        let advertisement = Advertisement(
            record: 1, timestampMicros: 0, source: .hciAdvertisingReport, eventTypeRaw: 0,
            address: BluetoothAddress(rawValue: 1), addressType: AddressType(rawValue: 0), rssiDBm: -50,
            data: InlineBytes(data))
        var found: [SightingIdentity] = []
        SightingExtractor.identities(DecodedAdvertisement(advertisement)) { found.append($0) }
        return found
    }

    @Test func aUIDIsItsNamespaceThenItsInstance() {
        let namespace: [UInt8] = [0x8B, 0x0C, 0xA7, 0x50, 0xE7, 0xA7, 0x4E, 0x14, 0xBD, 0x99]
        let instance: [UInt8] = [0x01, 0x02, 0x03, 0x04, 0x05, 0xFE]
        let frame: [UInt8] = [0x16, 0xAA, 0xFE, 0x00, 0xEC] + namespace + instance + [0x00, 0x00]
        let data: [UInt8] = [0x02, 0x01, 0x06, 0x03, 0x03, 0xAA, 0xFE, UInt8(frame.count)] + frame
        #expect(identities(data) == [SightingIdentity(.eddystoneUID, namespace + instance)])
    }

    @Test func anIBeaconIsItsUUIDThenMajorAndMinorBigEndian() {
        let uuid: [UInt8] = (0..<16).map { UInt8(0xF0 - $0) }
        let frame: [UInt8] = [0xFF, 0x4C, 0x00, 0x02, 0x15] + uuid + [0x12, 0x34, 0xAB, 0xCD, 0xC5]
        let data: [UInt8] = [0x02, 0x01, 0x06, UInt8(frame.count)] + frame
        #expect(identities(data) == [SightingIdentity(.iBeacon, uuid + [0x12, 0x34, 0xAB, 0xCD])])
    }

    @Test func anAltBeaconIsItsBeaconID() {
        let id: [UInt8] = (1...20).map { UInt8($0 * 13 & 0xFF) }
        let frame: [UInt8] = [0xFF, 0x18, 0x01, 0xBE, 0xAC] + id + [0xC5, 0x00]
        let data: [UInt8] = [0x02, 0x01, 0x06, UInt8(frame.count)] + frame
        #expect(identities(data) == [SightingIdentity(.altBeacon, id)])
    }
}
