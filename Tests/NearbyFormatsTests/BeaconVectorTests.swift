import NearbyBytes
import NearbyFormats
import NearbyTestSupport
import Testing

/// The advertisement vectors of `ReferenceVectors`; expected values are written from the
/// clauses of docs/spec/eddystone.md and docs/spec/ibeacon-altbeacon.md cited at each test.
@Suite struct BeaconVectorTests {
    func onlyBeacon(_ data: [UInt8]) throws -> BeaconFrame {
        let contents = AdvertisingDataDecoder.decode(data[...])
        #expect(contents.errors.isEmpty)
        #expect(contents.beacons.count == 1)
        return try #require(contents.beacons.first)
    }

    // EDDYSTONE-UID-1, EDDYSTONE-UID-3, EDDYSTONE-UID-5.
    @Test func uidAdvertDecodesToItsNamespaceAndInstance() throws {
        guard case .eddystone(.uid(let uid)) = try onlyBeacon(ReferenceVectors.uidAdvert) else {
            Issue.record("not a UID")
            return
        }
        #expect(uid.txPowerDBm == -18)
        #expect(Hex.encode(uid.namespace) == "8b0ca750095477cb3e77")
        #expect(Hex.encode(uid.instance) == "000000000001")
        #expect(uid.reserved == [0, 0])
    }

    // EDDYSTONE-URL-2, EDDYSTONE-URL-4, EDDYSTONE-URL-8.
    @Test func urlAdvertExpandsSchemeAndSuffix() throws {
        guard case .eddystone(.url(let url)) = try onlyBeacon(ReferenceVectors.urlAdvert) else {
            Issue.record("not a URL")
            return
        }
        #expect(url.txPowerDBm == 10)
        #expect(url.url == "https://www.example.com")
    }

    // EDDYSTONE-TLM-4, EDDYSTONE-TLM-6, EDDYSTONE-TLM-8, EDDYSTONE-TLM-9.
    @Test func tlmAdvertDecodesUnitsAndSigns() throws {
        guard case .eddystone(.tlm(let tlm)) = try onlyBeacon(ReferenceVectors.tlmAdvert) else {
            Issue.record("not TLM")
            return
        }
        #expect(tlm.batteryMillivolts == 3000)
        #expect(tlm.temperatureCelsius == 25.5)
        #expect(tlm.advertisingCount == 1000)
        #expect(tlm.uptimeTenths == 36000)
    }

    // EDDYSTONE-TLM-5, EDDYSTONE-TLM-7.
    @Test func tlmNotSupportedValuesBecomeNil() throws {
        guard case .eddystone(.tlm(let tlm)) = try onlyBeacon(ReferenceVectors.tlmNothingSupportedAdvert) else {
            Issue.record("not TLM")
            return
        }
        #expect(tlm.batteryMillivolts == nil)
        #expect(tlm.temperatureCelsius == nil)
    }

    // EDDYSTONE-TLM-6.
    static let temperatures: [(UInt8, UInt8, Double)] = [
        (0xFE, 0x80, -1.5), (0x19, 0x80, 25.5), (0xFF, 0xFF, -1.0 / 256), (0x7F, 0xFF, 127.99609375),
    ]

    @Test("TLM temperature is signed 8.8 fixed point", arguments: temperatures)
    func tlmTemperatureIsSignedFixedPoint(hi: UInt8, lo: UInt8, celsius: Double) throws {
        let sd: [UInt8] = [0x20, 0x00, 0x0B, 0xB8, hi, lo, 0, 0, 0, 1, 0, 0, 0, 1]
        let tlm = try EddystoneTLM(serviceData: sd[...])
        #expect(tlm.temperatureCelsius == celsius)
    }

    // EDDYSTONE-EID-1, EDDYSTONE-EID-2.
    @Test func eidAdvertCarriesItsEphemeralIdentifier() throws {
        guard case .eddystone(.eid(let eid)) = try onlyBeacon(ReferenceVectors.eidAdvert) else {
            Issue.record("not EID")
            return
        }
        #expect(eid.txPowerDBm == -4)
        #expect(Hex.encode(eid.eid) == "4144413e45fefa58")
    }

    // EDDYSTONE-ETLM-1.
    @Test func etlmAdvertExposesCiphertextSaltAndMIC() throws {
        guard case .eddystone(.encryptedTLM(let e)) = try onlyBeacon(ReferenceVectors.etlmAdvert) else {
            Issue.record("not eTLM")
            return
        }
        #expect(Hex.encode(e.ciphertext) == "d5d89979ae79ebee4e385fa5")
        #expect(Hex.encode(e.salt) == "f683")
        #expect(Hex.encode(e.mic) == "0efb")
        #expect(e.nordicPadding == nil)
    }

    // EDDYSTONE-ETLM-3: the reference decoder's reading of a 19th byte.
    @Test func nordicNineteenByteETLMIsAccepted() throws {
        let sd = ReferenceVectors.bytes("2001d5d89979ae79ebee4e385fa5f6830efb00")
        let e = try EddystoneEncryptedTLM(serviceData: sd[...])
        #expect(e.nordicPadding == 0)
        #expect(Hex.encode(e.mic) == "0efb")
    }

    // IBEACON-5, IBEACON-6, IBEACON-7.
    @Test func iBeaconAdvertDecodesBigEndianFields() throws {
        guard case .iBeacon(let b) = try onlyBeacon(ReferenceVectors.iBeaconAdvert) else {
            Issue.record("not iBeacon")
            return
        }
        #expect(Hex.encode(b.uuid) == "e2c56db5dffb48d2b060d0f5a71096e0")
        #expect(b.major == 1)
        #expect(b.minor == 2)
        #expect(b.measuredPowerDBm == -59)
    }

    // IBEACON-5, IBEACON-6, IBEACON-7.
    @Test func iBeaconFromARealCaptureDecodes() throws {
        let msd = ReferenceVectors.iBeaconNobleMSD
        let b = try #require(try IBeacon(company: .apple, data: msd[2...]))
        #expect(Hex.encode(b.uuid) == "4edce9159fbb618b47f6f203bbdd089a")
        #expect(b.major == 16124)
        #expect(b.minor == 52772)
        #expect(b.measuredPowerDBm == -72)
    }

    // IBEACON-3, IBEACON-4.
    @Test(
        "other Apple TLV types are not beacons",
        arguments: [
            "0201060aff4c0010050318a1b2c3",  // 0x10 Nearby Info
            "1eff4c001219" + String(repeating: "00", count: 25),  // 0x12 Find My
            "0201061aff4d000215e2c56db5dffb48d2b060d0f5a71096e000010002c5",  // company 0x004D, not Apple
        ])
    func otherAppleTypesAreNotBeacons(_ hex: String) {
        let contents = AdvertisingDataDecoder.decode(ReferenceVectors.bytes(hex)[...])
        #expect(contents.beacons.isEmpty)
        #expect(contents.errors.isEmpty)
    }

    // IBEACON-10: the reference decoder's reading (another decoder may report the iBeacon).
    @Test func iBeaconFollowedByAnotherTLVIsReportedNotDecoded() {
        let contents = AdvertisingDataDecoder.decode(
            ReferenceVectors.bytes("1cff4c000215e2c56db5dffb48d2b060d0f5a71096e000010002c50100")[...])
        #expect(contents.beacons.isEmpty)
        #expect(contents.errors.map(\.code) == [.trailingBytes])
    }

    // ALTBEACON-3, ALTBEACON-5, ALTBEACON-7, ALTBEACON-9.
    @Test func altBeaconDecodesManufacturerIdAndReserved() throws {
        guard case .altBeacon(let b) = try onlyBeacon(ReferenceVectors.altBeaconAdvert) else {
            Issue.record("not AltBeacon")
            return
        }
        #expect(b.manufacturer.rawValue == 0x0118)
        #expect(Hex.encode(b.beaconID) == "2f234454cf6d4a0fadf2f4911ba9ffa600010002")
        #expect(b.referenceRSSIDBm == -59)
        #expect(b.reserved == 9)
    }

    // ALTBEACON-11: the reference decoder's reading of 23 bytes.
    @Test func altBeaconWithoutReservedByteStillParses() throws {
        guard case .altBeacon(let b) = try onlyBeacon(ReferenceVectors.altBeaconShortAdvert) else {
            Issue.record("not AltBeacon")
            return
        }
        #expect(b.reserved == nil)
        #expect(b.referenceRSSIDBm == -59)
    }

    /// android-beacon-library's fixture declares AD length 0x16 with 21 bytes after it:
    /// the AD structure itself overruns, so no AltBeacon is read.
    @Test func altBeaconWhoseStructureOverrunsIsMalformed() {
        let contents = AdvertisingDataDecoder.decode(
            ReferenceVectors.bytes("02011a16ff1801beac2f234454cf6d4a0fadf2f4911ba9ffa6")[...])
        #expect(contents.beacons.isEmpty)
        #expect(contents.errors.map(\.code) == [.lengthOverrun])
        #expect(contents.errors.first?.offset == 3)
    }

    // ALTBEACON-10: `truncated` at m + 22.
    @Test func altBeaconCutBeforeItsReferenceRSSIIsTruncated() {
        let contents = AdvertisingDataDecoder.decode(
            ReferenceVectors.bytes("02011a19ff1801beac2f234454cf6d4a0fadf2f4911ba9ffa600010002")[...])
        #expect(contents.beacons.isEmpty)
        #expect(contents.errors.map(\.code) == [.truncated])
        #expect(contents.errors.first?.offset == 29)
    }

    // ALTBEACON-4.
    @Test func shortManufacturerDataIsNeitherBeaconNorError() {
        let contents = AdvertisingDataDecoder.decode(ReferenceVectors.notAltBeaconAdvert[...])
        #expect(contents.beacons.isEmpty)
        #expect(contents.errors.isEmpty)
    }
}

@Suite struct EddystoneURLTests {
    /// Encodings from android-beacon-library's compressor tests and google/eddystone's JS
    /// tests.
    static let encodings: [([UInt8], String)] = [
        ([0x00] + Array("radiusnetworks".utf8) + [0x07], "http://www.radiusnetworks.com"),
        ([0x01] + Array("radiusnetworks".utf8) + [0x00], "https://www.radiusnetworks.com/"),
        ([0x02] + Array("google".utf8) + [0x00] + Array("123".utf8), "http://google.com/123"),
        ([0x00] + Array("forums.google".utf8) + [0x00] + Array("123/456".utf8), "http://www.forums.google.com/123/456"),
        ([0x02] + Array("google".utf8) + [0x0B], "http://google.info"),
        ([0x02] + Array("google.ca/".utf8), "http://google.ca/"),
        ([0x03] + Array("x".utf8) + [0x0D, 0x06], "https://x.gov.gov/"),
    ]

    // EDDYSTONE-URL-2, EDDYSTONE-URL-4, EDDYSTONE-URL-5, EDDYSTONE-URL-8.
    @Test("URL encodings expand as specified", arguments: encodings)
    func urlEncodingsExpand(encoded: [UInt8], url: String) throws {
        let sd: [UInt8] = [0x10, 0xE7] + encoded
        let frame = try EddystoneURL(serviceData: sd[...])
        #expect(frame.url == url)
        #expect(frame.reservedBytes.isEmpty)
    }

    /// The expansion codes 0x00–0x0D (EDDYSTONE-URL-4; the Eddystone-URL specification's "HTTP URL
    /// encoding"), written from the specification's table.
    static let expansionCodes: [(UInt8, String)] = [
        (0x00, ".com/"), (0x01, ".org/"), (0x02, ".edu/"), (0x03, ".net/"), (0x04, ".info/"),
        (0x05, ".biz/"), (0x06, ".gov/"), (0x07, ".com"), (0x08, ".org"), (0x09, ".edu"),
        (0x0A, ".net"), (0x0B, ".info"), (0x0C, ".biz"), (0x0D, ".gov"),
    ]

    // EDDYSTONE-URL-4.
    @Test("Every expansion code expands to its text", arguments: expansionCodes)
    func everyExpansionCodeExpands(code: UInt8, text: String) throws {
        let frame = try EddystoneURL(serviceData: ([0x10, 0x00, 0x02] + Array("a".utf8) + [code])[...])
        #expect(frame.url == "http://a" + text)
    }

    // EDDYSTONE-URL-12: the reference decoder expands an encoding longer than 17 bytes.
    @Test func theLongestExpansionsAreWhole() throws {
        // 17 bytes is the most a frame holds; a longer encoding (a malformed frame) is expanded too.
        for count in [17, 40] {
            let frame = try EddystoneURL(serviceData: ([0x10, 0x00, 0x01] + Array(repeating: 0x04, count: count))[...])
            #expect(frame.url == "https://www." + String(repeating: ".info/", count: count))
            // 40 bytes are past what `encodedBytes` holds inline: the same bytes, indexed from 0.
            #expect(frame.encoded == Array(repeating: 0x04, count: count))
            #expect(frame.encodedBytes.indices == 0..<count)
        }
    }

    // EDDYSTONE-URL-6.
    @Test func reservedBytesAreReportedNotPassedThrough() throws {
        let sd: [UInt8] = [0x10, 0x00, 0x02] + Array("a".utf8) + [0x0E, 0x20, 0x7F, 0xFF]
        let frame = try EddystoneURL(serviceData: sd[...])
        #expect(frame.url == nil)
        #expect(frame.reservedBytes.map(\.offset) == [1, 2, 3, 4])
        #expect(frame.reservedBytes.map(\.value) == [0x0E, 0x20, 0x7F, 0xFF])
    }

    // EDDYSTONE-URL-7.
    @Test func reservedSchemeGivesNoURL() throws {
        let sd: [UInt8] = [0x10, 0x00, 0x04] + Array("example".utf8)
        let frame = try EddystoneURL(serviceData: sd[...])
        #expect(frame.hasReservedScheme)
        #expect(frame.url == nil)
    }
}

@Suite struct EddystoneFrameTypeTests {
    // EDDYSTONE-E2EE-2.
    @Test func e2eeEIDWithHashedFlagsIsRecognised() throws {
        let body = [UInt8](repeating: 0xAB, count: 20)
        let frame = try EddystoneFrame(serviceData: ([0x40] + body + [0x24])[...])
        #expect(frame == .e2eeEID(try EddystoneE2EEEID(serviceData: ([0x40] + body + [0x24])[...])))
        guard case .e2eeEID(let e) = frame else {
            Issue.record("not E2EE")
            return
        }
        #expect(e.eid == body)
        #expect(e.hashedFlags == 0x24)
    }

    // EDDYSTONE-FRAME-10.
    @Test func unknownFrameTypesKeepTheirBytes() throws {
        for type: UInt8 in [0x41, 0x50, 0x01, 0xF0] {
            let sd: [UInt8] = [type, 1, 2, 3]
            #expect(try EddystoneFrame(serviceData: sd[...]) == .unknown(frameType: type, serviceData: sd))
        }
    }

    // EDDYSTONE-TLM-2.
    @Test func tlmOfAnUnknownVersionKeepsItsBytes() throws {
        let sd: [UInt8] = [0x20, 0x02, 9, 9]
        #expect(try EddystoneFrame(serviceData: sd[...]) == .tlmUnknownVersion(version: 2, serviceData: sd))
    }

    // EDDYSTONE-FRAME-9: `truncated` at s + 0.
    @Test func eddystoneServiceDataWithoutFrameIsTruncated() {
        let contents = AdvertisingDataDecoder.decode(ReferenceVectors.bytes("0316aafe")[...])
        #expect(contents.errors.map(\.code) == [.truncated])
        #expect(contents.errors.first?.offset == 4)
    }
}
