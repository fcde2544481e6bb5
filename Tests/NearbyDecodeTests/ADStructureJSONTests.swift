import NearbyDecode
import NearbyJSON
import Testing

/// The `ad` entries of a decode line (docs/decode-output.md, "AD structures"), one AD type at a
/// time, from bytes laid out as the Core Specification Supplement (Part A, §1) gives them.
@Suite struct ADStructureJSONTests {
    static func entries(_ bytes: [UInt8]) -> String {
        var w = JSONWriter(capacity: 256)
        bytes.withUnsafeBufferPointer { ADStructureJSON.write($0, to: &w) }
        return String(decoding: w.bytes, as: UTF8.self)
    }

    @Test func uuidListsAreWrittenMostSignificantFirstWithTheirNames() {
        // 16-bit 0x180F (Battery) and 0xFFFF (unassigned); 32-bit 0x12345678.
        #expect(
            Self.entries([0x05, 0x02, 0x0F, 0x18, 0xFF, 0xFF, 0x05, 0x05, 0x78, 0x56, 0x34, 0x12])
                == #"[{"adType":2,"names":["Battery",null],"type":"uuid16-incomplete","uuids":["180f","ffff"]},"#
                + #"{"adType":5,"type":"uuid32-complete","uuids":["12345678"]}]"#)
        // 128-bit: Nordic UART 6e400001-b5a3-f393-e0a9-e50e24dcca9e, sent least significant first.
        let nus: [UInt8] = [
            0x9E, 0xCA, 0xDC, 0x24, 0x0E, 0xE5, 0xA9, 0xE0, 0x93, 0xF3, 0xA3, 0xB5, 0x01, 0x00, 0x40, 0x6E,
        ]
        #expect(
            Self.entries([0x11, 0x07] + nus)
                == #"[{"adType":7,"type":"uuid128-complete","uuids":["6e400001-b5a3-f393-e0a9-e50e24dcca9e"]}]"#)
    }

    @Test func namesAreTextAndUndecodableOnesKeepTheirBytes() {
        #expect(
            Self.entries([0x04, 0x09, 0x41, 0xC3, 0xA9])
                == #"[{"adType":9,"name":"Aé","type":"name-complete"}]"#)
        #expect(
            Self.entries([0x03, 0x08, 0x41, 0xFF])
                == #"[{"adType":8,"data":"41ff","name":"A\#u{FFFD}","type":"name-shortened"}]"#)
    }

    @Test func serviceDataAppearanceAndTxPower() {
        // Service Data 16 on 0xFEAA (Google LLC); 32-bit service data; appearance 0x0040
        // (Generic Phone); Tx Power −12 dBm.
        #expect(
            Self.entries([0x04, 0x16, 0xAA, 0xFE, 0x10, 0x07, 0x20, 0x01, 0x02, 0x03, 0x04, 0xAB, 0xCD])
                == #"[{"adType":22,"data":"10","type":"service-data-16","uuid":"feaa","uuidName":"Google LLC"},"#
                + #"{"adType":32,"data":"abcd","type":"service-data-32","uuid":"04030201"}]"#)
        #expect(
            Self.entries([0x03, 0x19, 0x40, 0x00, 0x02, 0x0A, 0xF4])
                == #"[{"adType":25,"appearance":64,"appearanceName":"Generic Phone","type":"appearance"},"#
                + #"{"adType":10,"txPower":-12,"type":"tx-power"}]"#)
    }

    @Test func shortStructuresKeepTheirBytesAndOtherTypesTheirName() {
        // A manufacturer entry of one octet; a 16-bit UUID list of three; LE Role (0x1C).
        #expect(
            Self.entries([0x02, 0xFF, 0x4C, 0x04, 0x03, 0xAA, 0xFE, 0x01, 0x02, 0x1C, 0x00])
                == #"[{"adType":255,"data":"4c","type":"manufacturer-data"},"#
                + #"{"adType":3,"data":"aafe01","type":"uuid16-complete"},"#
                + #"{"adType":28,"adTypeName":"LE Role","data":"00","type":"other"}]"#)
    }

    // AD-2, AD-3: the walk ends at a length of 0 and before a structure that overruns.
    @Test func theWalkEndsAtPaddingAndAtAnOverrun() {
        #expect(
            Self.entries([0x02, 0x01, 0x06, 0x00, 0x02, 0x01, 0x06]) == #"[{"adType":1,"flags":6,"type":"flags"}]"#)
        #expect(Self.entries([0x02, 0x01, 0x06, 0x05, 0xFF, 0x4C]) == #"[{"adType":1,"flags":6,"type":"flags"}]"#)
        #expect(Self.entries([]) == "[]")
    }
}
