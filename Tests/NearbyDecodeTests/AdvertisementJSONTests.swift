import NearbyBytes
import NearbyCapture
import NearbyDecode
import NearbyJSON
import Testing

/// The `decode` output object (docs/decode-output.md) of advertisements that take the rare
/// branches of `writeJSON` (no golden capture has them): written as the value-tree writer
/// writes the same object, member by member.
@Suite struct AdvertisementJSONTests {
    static func written(_ decoded: DecodedAdvertisement, file: String) -> String {
        var w = JSONWriter(capacity: 16)
        decoded.writeJSON(file: EscapedString(file), to: &w)
        return String(decoding: w.bytes, as: UTF8.self)
    }

    @Test func undefinedNamesDirectAddressesAndNullsAreWrittenAsTheValueTree() {
        let decoded = DecodedAdvertisement(
            Advertisement(
                record: 7, timestampMicros: nil, source: .hciDirectedAdvertisingReport, eventTypeRaw: 0x09,
                address: BluetoothAddress(rawValue: 0xC0FF_EE00_0005), addressType: AddressType(rawValue: 0x42),
                rssiDBm: nil, data: nil, directAddress: BluetoothAddress(rawValue: 0x0011_2233_4455),
                directAddressType: AddressType(rawValue: 0x01)))
        let file = "odd \"name\"\\\u{1}\u{1F600}.pcap"
        let expected = JSONValue.object([
            "ad": .array([]),  // no AD data
            "address": .string("c0:ff:ee:00:00:05"), "addressType": .string("0x42"), "beacons": .array([]),
            "channel": .null, "data": .null, "directAddress": .string("00:11:22:33:44:55"),
            "directAddressType": .string("random"), "eventType": .string("reserved-0x09"), "eventTypeRaw": .integer(9),
            "file": .string(file), "record": .integer(7), "rssi": .null, "scanResponse": .bool(false),
            "source": .string("hci-direct-adv-report"), "time": .null, "txPower": .null,
        ])
        #expect(Self.written(decoded, file: file) == expected.serialized)
    }

    @Test func extendedDetailsErrorsAndNegativeNumbersAreWrittenAsTheValueTree() throws {
        // A Manufacturer Specific Data structure that declares 5 bytes and has 2: a fault.
        let decoded = DecodedAdvertisement(
            Advertisement(
                record: 123_456, timestampMicros: -1, source: .hciExtendedAdvertisingReport, eventTypeRaw: 0x0017,
                address: BluetoothAddress(rawValue: 0xFFFF_FFFF_FFFF), addressType: .anonymous, rssiDBm: -127,
                txPowerDBm: -20, channelIndex: 37, data: [0x05, 0xFF, 0x4C],
                extended: ExtendedReportDetails(
                    primaryPHY: 3, secondaryPHY: 2, sid: 15, periodicAdvertisingInterval: 65_535, dataStatus: 2,
                    fragments: 12_345_678_901, truncated: true)))
        let error = try #require(decoded.contents.errors.first)
        let expected = JSONValue.object([
            "ad": .array([]),  // the one structure overruns the data (AD-3): none is listed
            "address": .string("ff:ff:ff:ff:ff:ff"), "addressType": .string("anonymous"), "beacons": .array([]),
            "channel": .integer(37), "data": .string("05ff4c"),
            "errors": .array([
                .object([
                    "code": .string(error.code.rawValue), "layer": .string(error.layer.description),
                    "offset": .integer(Int64(error.offset)), "reason": .string(error.reason),
                ])
            ]),
            "eventType": .string("reserved-legacy-0x17"), "eventTypeRaw": .integer(0x17),
            "extended": .object([
                "dataStatus": .integer(2), "fragments": .integer(12_345_678_901), "periodicInterval": .integer(65_535),
                "primaryPhy": .integer(3), "secondaryPhy": .integer(2), "sid": .integer(15), "truncated": .bool(true),
            ]),
            "file": .string("x"), "record": .integer(123_456), "rssi": .integer(-127), "scanResponse": .bool(false),
            "source": .string("hci-ext-adv-report"), "time": .number("-0.000001"), "txPower": .integer(-20),
        ])
        #expect(Self.written(decoded, file: "x") == expected.serialized)
    }
}
