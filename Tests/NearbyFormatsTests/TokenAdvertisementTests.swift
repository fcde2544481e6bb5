import NearbyBytes
import NearbyFormats
import NearbyTestSupport
import Testing

/// The BLE token advertisement v1, against the hand-derived vectors of docs/spec/ble-token.md.
@Suite struct TokenAdvertisementTests {
    static let sixByteAD = "0d16f3fef71006a1b2c3d4e5f6f4"
    static let sixteenByteAD = "1716f3fef71010000102030405060708090a0b0c0d0e0f04"

    /// Holds TOKEN-1, TOKEN-6, TOKEN-7 and TOKEN-18.
    @Test func sixByteTokenVectorDecodes() throws {
        let contents = AdvertisingDataDecoder.decode(ReferenceVectors.bytes(Self.sixByteAD)[...])
        #expect(contents.errors.isEmpty)
        #expect(
            contents.beacons == [
                .token(.v1(TokenAdvertisement(token: [0xa1, 0xb2, 0xc3, 0xd4, 0xe5, 0xf6], txPowerDBm: -12)))
            ])
        #expect(contents.beacons.first?.typeName == "token-v1")
    }

    /// Holds TOKEN-5 and TOKEN-6.
    @Test func sixteenByteTokenVectorDecodes() {
        let contents = AdvertisingDataDecoder.decode(ReferenceVectors.bytes(Self.sixteenByteAD)[...])
        #expect(contents.beacons == [.token(.v1(TokenAdvertisement(token: Array(0...15), txPowerDBm: 4)))])
    }

    /// Holds TOKEN-1 and TOKEN-9.
    @Test func encoderWritesTheVectorBytes() {
        let six = TokenAdvertisement(token: [0xa1, 0xb2, 0xc3, 0xd4, 0xe5, 0xf6], txPowerDBm: -12)
        #expect(Hex.encode(six.adStructure) == Self.sixByteAD)
        #expect(Hex.encode(six.advertisingData) == "0201060303f3fe" + Self.sixByteAD)
        #expect(six.advertisingData.count == 21)
        let sixteen = TokenAdvertisement(token: Array(0...15), txPowerDBm: 4)
        #expect(Hex.encode(sixteen.adStructure) == Self.sixteenByteAD)
        #expect(sixteen.advertisingData.count == 31, "a 16-byte token fills a legacy PDU exactly")
    }

    /// Holds TOKEN-5 and TOKEN-8.
    @Test func everyAllowedLengthRoundTrips() throws {
        for length in [6, 8, 9, 10, 11, 12, 13, 14, 15, 16] {
            let t = TokenAdvertisement(token: (0..<length).map { UInt8(0x30 + $0) }, txPowerDBm: -100)
            let back = try TokenAdvertisement.decode(serviceData: t.serviceData[...])
            #expect(back == .v1(t), "length \(length)")
        }
    }

    /// TOKEN-5, TOKEN-13: `L` is 6 or 8…16. Every declared length byte, with `L` token
    /// bytes and the Tx_Power after it, is accepted exactly when it is one of those.
    /// Holds TOKEN-5 and TOKEN-13.
    @Test func onlyTheSpecifiedLengthsAreAccepted() throws {
        for length in 0...255 {
            let serviceData: [UInt8] = [0xF7, 0x10, UInt8(length)] + Array(repeating: 0x5A, count: length) + [0xF4]
            let specified = length == 6 || (8...16).contains(length)
            do {
                let content = try TokenAdvertisement.decode(serviceData: serviceData[...])
                #expect(specified, "length \(length) was accepted")
                guard case .v1(let token)? = content else {
                    Issue.record("length \(length): \(String(describing: content))")
                    continue
                }
                #expect(Array(token.token) == Array(repeating: 0x5A, count: length))
            } catch {
                #expect(!specified, "length \(length) was refused: \(error)")
                #expect(error.key == "token/invalid-value" && error.offset == 2, "length \(length)")
            }
        }
    }

    /// Holds TOKEN-13 and TOKEN-17.
    @Test func disallowedLengthIsInvalidValueAtTheLengthByte() {
        let contents = AdvertisingDataDecoder.decode(ReferenceVectors.bytes("0916f3fef71007a1b2c3")[...])
        #expect(contents.beacons.isEmpty)
        #expect(contents.errors.map(\.key) == ["token/invalid-value"])
        #expect(contents.errors.first?.offset == 6)
    }

    /// Holds TOKEN-15 and TOKEN-17.
    @Test func missingTxPowerIsTruncated() {
        let contents = AdvertisingDataDecoder.decode(ReferenceVectors.bytes("0c16f3fef71006a1b2c3d4e5f6")[...])
        #expect(contents.errors.map(\.key) == ["token/truncated"])
        #expect(contents.errors.first?.offset == 13)
    }

    /// Holds TOKEN-14 and TOKEN-17.
    @Test func shortTokenIsLengthOverrunAtTheLengthByte() {
        let contents = AdvertisingDataDecoder.decode(ReferenceVectors.bytes("0b16f3fef71008a1b2c3d4e5")[...])
        #expect(contents.errors.map(\.key) == ["token/length-overrun"])
        #expect(contents.errors.first?.offset == 6)
    }

    /// Holds TOKEN-16.
    @Test func trailingByteAfterTxPowerIsRejected() {
        let contents = AdvertisingDataDecoder.decode(ReferenceVectors.bytes("0e16f3fef71006a1b2c3d4e5f6f400")[...])
        #expect(contents.errors.map(\.key) == ["token/trailing-bytes"])
    }

    /// Nearby Connections v2 header bytes (version 2 in the top three bits, docs/spec/ble-token.md)
    /// and v1 fast advertisements on the same UUID are not tokens and not errors.
    /// Holds TOKEN-2.
    @Test func nearbyConnectionsAdvertisementsAreNotTokens() {
        for first: UInt8 in [0x20, 0x22, 0x41, 0x52, 0x5F] {
            let ad: [UInt8] = [0x14, 0x16, 0xF3, 0xFE, first] + [UInt8](repeating: 0x11, count: 16)
            let contents = AdvertisingDataDecoder.decode(ad[...])
            #expect(contents.beacons.isEmpty && contents.errors.isEmpty, "header \(first)")
        }
    }

    /// Holds TOKEN-10.
    @Test func unknownMajorVersionIsShownNotRejected() {
        let contents = AdvertisingDataDecoder.decode(ReferenceVectors.bytes("0816f3fef720aabbcc")[...])
        #expect(contents.errors.isEmpty)
        #expect(contents.beacons == [.token(.unknownVersion(2, [0xaa, 0xbb, 0xcc]))])
        #expect(contents.beacons.first?.typeName == "token-unknown")
    }

    /// Holds TOKEN-4.
    @Test func flagsAreReportedAndIgnored() {
        let contents = AdvertisingDataDecoder.decode(ReferenceVectors.bytes("0d16f3fef71506a1b2c3d4e5f6f4")[...])
        #expect(
            contents.beacons == [
                .token(.v1(TokenAdvertisement(token: [0xa1, 0xb2, 0xc3, 0xd4, 0xe5, 0xf6], txPowerDBm: -12, flags: 5)))
            ])
    }

    /// Holds TOKEN-2, TOKEN-11, TOKEN-12, TOKEN-14 and TOKEN-15.
    @Test func dripFeedFailsAtTheFieldTheMapNames() {
        let sd = Array(ReferenceVectors.bytes(Self.sixByteAD)[4...])
        var m = FieldMap()
        m.fixed(1)
        m.fixed(1)
        m.lengthPrefixed(6)
        m.fixed(1)
        #expect(m.end == sd.count)
        for n in 1..<sd.count {
            do {
                _ = try TokenAdvertisement.decode(serviceData: sd[0..<n])
                Issue.record("prefix \(n) decoded")
            } catch {
                let want = m.expectedFailure(cutAt: n)
                #expect(
                    error.layer == .token && error.code == want.code && error.offset == want.offset,
                    "prefix \(n): got \(error.key) at \(error.offset), want \(want.code) at \(want.offset)")
            }
        }
        #expect(
            (try? TokenAdvertisement.decode(serviceData: sd[0..<0])) == .some(nil), "empty service data is not a token")
    }
}
