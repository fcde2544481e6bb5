import NearbyCapture
import NearbyDecode
import NearbyDecodeSession
import Testing

/// The columns of a `decode --format table` row (docs/decode-output.md): record (7,
/// right-aligned), time (27), address (17), address type (15), RSSI (4, right-aligned),
/// event type (15), each followed by two spaces, then the beacons.
@Suite struct DecodeTableRowTests {
    @Test func undefinedNamesAndMissingValuesFillTheirColumns() {
        let decoded = DecodedAdvertisement(
            Advertisement(
                record: 7, timestampMicros: nil, source: .hciDirectedAdvertisingReport, eventTypeRaw: 0x09,
                address: BluetoothAddress(rawValue: 0xC0FF_EE00_0005), addressType: AddressType(rawValue: 0x42),
                rssiDBm: nil, data: nil))
        let expected =
            "      7  " + "-" + String(repeating: " ", count: 26) + "  " + "c0:ff:ee:00:00:05  "
            + "0x42" + String(repeating: " ", count: 11) + "  " + "   -  " + "reserved-0x09" + "    "
        #expect(DecodeTable.row(decoded) == expected)
    }

    @Test func namedValuesArePaddedAndNumbersRightAligned() {
        let decoded = DecodedAdvertisement(
            Advertisement(
                record: 1_234_567, timestampMicros: 0, source: .hciAdvertisingReport, eventTypeRaw: 3,
                address: BluetoothAddress(rawValue: 0x0011_2233_4455), addressType: .random, rssiDBm: -7, data: []))
        let expected =
            "1234567  1970-01-01T00:00:00.000000Z  00:11:22:33:44:55  " + "random" + String(repeating: " ", count: 9)
            + "  " + "  -7  " + "ADV_NONCONN_IND  "
        #expect(DecodeTable.row(decoded) == expected)
    }

    // An advertisement without a beacon shows its AD structures: Flags 0x1A, then Apple's
    // manufacturer data of type 0x10 (not an iBeacon: IBEACON-4), as the `ad` entries read.
    @Test func anAdvertisementWithoutABeaconShowsItsADStructures() {
        let decoded = DecodedAdvertisement(
            Advertisement(
                record: 1, timestampMicros: 0, source: .hciAdvertisingReport, eventTypeRaw: 0,
                address: BluetoothAddress(rawValue: 0x0011_2233_4455), addressType: .random, rssiDBm: -50,
                data: [0x02, 0x01, 0x1A, 0x06, 0xFF, 0x4C, 0x00, 0x10, 0x05, 0x01]))
        let row = DecodeTable.row(decoded)
        #expect(
            row.hasSuffix(
                #"ADV_IND          flags flags=26; manufacturer-data company=76 companyName="Apple, Inc." data="100501""#
            ))
        #expect(DecodeTable.header.hasPrefix(" record  time"))
    }
}
