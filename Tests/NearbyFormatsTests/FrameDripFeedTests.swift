import NearbyBytes
import NearbyFormats
import NearbyTestSupport
import Testing

/// Every strict prefix of a valid input fails cleanly with the offset that the
/// hand-written field map of the format gives (or, where the format has shorter valid
/// forms, decodes).
@Suite struct FrameDripFeedTests {
    func check(
        _ input: [UInt8], map: FieldMap, validEnds: Set<Int> = [], layer: DecodeError.Layer,
        decode: (ArraySlice<UInt8>) throws(DecodeError) -> Void
    ) {
        #expect(map.end == input.count, "the map covers the input")
        for n in 0..<input.count {
            do {
                try decode(input[0..<n])
                #expect(validEnds.contains(n), "prefix of \(n) bytes decoded but should fail")
            } catch {
                #expect(!validEnds.contains(n), "prefix of \(n) bytes failed: \(error)")
                let want = map.expectedFailure(cutAt: n)
                #expect(
                    error.code == want.code && error.offset == want.offset && error.layer == layer,
                    "prefix \(n): got \(error.key) at \(error.offset), want \(want.code) at \(want.offset)")
            }
        }
    }

    // EDDYSTONE-UID-8 (truncated at each field), EDDYSTONE-UID-6, EDDYSTONE-UID-7 (18 and 19 bytes
    // decode), EDDYSTONE-FRAME-9 (the empty prefix).
    @Test func uidFrame() {
        let sd = Array(ReferenceVectors.uidAdvert[11...])
        var m = FieldMap()
        [1, 1, 10, 6, 1, 1].forEach { m.fixed($0) }
        check(sd, map: m, validEnds: [18, 19], layer: .eddystone) { (s) throws(DecodeError) in
            _ = try EddystoneFrame(serviceData: s)
        }
    }

    // EDDYSTONE-URL-10 (truncated before the scheme), EDDYSTONE-URL-9 (3 bytes decode).
    @Test func urlFrame() {
        let sd = Array(ReferenceVectors.urlAdvert[11...])
        var m = FieldMap()
        [1, 1, 1].forEach { m.fixed($0) }
        m.fixed(sd.count - 3)
        check(sd, map: m, validEnds: Set(3..<sd.count), layer: .eddystone) { (s) throws(DecodeError) in
            _ = try EddystoneFrame(serviceData: s)
        }
    }

    // EDDYSTONE-TLM-10, EDDYSTONE-TLM-3.
    @Test func tlmFrame() {
        let sd = Array(ReferenceVectors.tlmAdvert[11...])
        var m = FieldMap()
        [1, 1, 2, 2, 4, 4].forEach { m.fixed($0) }
        check(sd, map: m, layer: .eddystone) { (s) throws(DecodeError) in _ = try EddystoneFrame(serviceData: s) }
    }

    // EDDYSTONE-ETLM-2 (truncated at each field; a prefix of 18 bytes decodes).
    @Test func encryptedTLMFrame() {
        let sd = Array(ReferenceVectors.etlmAdvert[11...]) + [0x00]
        var m = FieldMap()
        [1, 1, 12, 2, 2, 1].forEach { m.fixed($0) }
        check(sd, map: m, validEnds: [18], layer: .eddystone) { (s) throws(DecodeError) in
            _ = try EddystoneFrame(serviceData: s)
        }
    }

    // EDDYSTONE-EID-3.
    @Test func eidFrame() {
        let sd = Array(ReferenceVectors.eidAdvert[11...])
        var m = FieldMap()
        [1, 1, 8].forEach { m.fixed($0) }
        check(sd, map: m, layer: .eddystone) { (s) throws(DecodeError) in _ = try EddystoneFrame(serviceData: s) }
    }

    // EDDYSTONE-E2EE-1, EDDYSTONE-E2EE-2, EDDYSTONE-E2EE-3; EDDYSTONE-FRAME-9 for the empty prefix.
    @Test func e2eeEIDFrameAcceptsOnlyItsFourLengths() {
        let sd: [UInt8] = [0x40] + [UInt8](repeating: 7, count: 33)
        for n in 0..<sd.count {
            do {
                _ = try EddystoneFrame(serviceData: sd[0..<n])
                #expect([21, 22, 33].contains(n), "prefix \(n) decoded")
            } catch {
                #expect(![21, 22, 33].contains(n))
                #expect(error.code == (n == 0 ? .truncated : .lengthMismatch))
                #expect(error.offset == (n == 0 ? 0 : 1))
            }
        }
    }

    // IBEACON-4 (too short for `02 15`: not an iBeacon), IBEACON-8.
    @Test func iBeaconManufacturerData() {
        let msd = Array(ReferenceVectors.iBeaconAdvert[5...])  // after 1a ff: company, 02 15, 21 bytes
        var m = FieldMap(start: 0)
        m.fixed(2)
        m.fixed(1)
        m.lengthPrefixed(21)
        #expect(m.end == msd.count)
        for n in 2..<msd.count {
            do {
                let beacon = try IBeacon(company: .apple, data: msd[2..<n])
                #expect(beacon == nil && n < 4, "prefix \(n): \(String(describing: beacon))")
            } catch {
                let want = m.expectedFailure(cutAt: n)
                #expect(
                    error.code == want.code && error.offset == want.offset && error.layer == .iBeacon, "prefix \(n)")
            }
        }
    }

    // ALTBEACON-4, ALTBEACON-10, ALTBEACON-11 (23 bytes decode).
    @Test func altBeaconManufacturerData() {
        let msd = Array(ReferenceVectors.altBeaconAdvert[5..<31])  // the AD ends at 31; a 00 terminator follows
        #expect(msd.count == 26)
        var m = FieldMap()
        [2, 2, 20, 1, 1].forEach { m.fixed($0) }
        for n in 2..<msd.count {
            do {
                let beacon = try AltBeacon(company: .radiusNetworks, data: msd[2..<n])
                #expect((beacon == nil && n < 4) || n == 25, "prefix \(n): \(String(describing: beacon))")
            } catch {
                let want = m.expectedFailure(cutAt: n)
                #expect(
                    error.code == want.code && error.offset == want.offset && error.layer == .altBeacon, "prefix \(n)")
            }
        }
    }

    @Test func advertisingDataStructures() {
        let data = ReferenceVectors.eidAdvert
        var m = FieldMap()
        m.lengthPrefixed(2)
        m.lengthPrefixed(3)
        m.lengthPrefixed(13)
        for n in 0..<data.count {
            let contents = AdvertisingDataDecoder.decode(data[0..<n])
            if [0, 3, 7].contains(n) {
                #expect(contents.errors.isEmpty, "cut at a structure boundary is valid data")
            } else {
                let want = m.expectedFailure(cutAt: n)
                #expect(
                    contents.errors.map(\.code) == [want.code] && contents.errors.first?.offset == want.offset,
                    "prefix \(n)")
            }
            #expect(contents.beacons.isEmpty)
        }
    }
}
