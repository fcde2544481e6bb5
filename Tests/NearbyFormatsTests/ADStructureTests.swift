import NearbyBytes
import NearbyFormats
import NearbyTestSupport
import Testing

/// The AD structure walk of docs/spec/ad-structures.md.
@Suite struct ADStructureTests {
    func walk(_ data: [UInt8]) -> ([(ADType, [UInt8], Int)], DecodeError?) {
        var seen: [(ADType, [UInt8], Int)] = []
        do {
            try ADStructure.forEach(in: data[...]) { (ad: ADStructure) throws(DecodeError) in
                seen.append((ad.type, Array(ad.payload), ad.offset))
            }
            return (seen, nil)
        } catch {
            return (seen, error)
        }
    }

    /// AD-1, AD-4.
    @Test func structuresAreVisitedInOrderWithTheirOffsets() {
        let (seen, error) = walk(ReferenceVectors.eidAdvert)
        #expect(error == nil)
        #expect(seen.map(\.0) == [.flags, .completeList16BitUUIDs, .serviceData16BitUUID])
        #expect(seen.map(\.2) == [0, 3, 7])
        #expect(seen[1].1 == [0xAA, 0xFE])
    }

    /// AD-2.
    @Test func aZeroLengthEndsTheData() {
        let (seen, error) = walk([0x02, 0x01, 0x06, 0x00, 0xFF, 0xFF, 0xFF])
        #expect(error == nil)
        #expect(seen.count == 1)
    }

    /// AD-3.
    @Test func anOverrunningStructureIsMalformedAtItsLengthByte() {
        let (seen, error) = walk([0x02, 0x01, 0x06, 0x1F, 0xFF, 0x4C, 0x00])
        #expect(seen.count == 1)
        #expect(error?.code == .lengthOverrun)
        #expect(error?.offset == 3)
        #expect(error?.layer == .adStructure)
    }

    /// AD-3, RECORDS-8.
    @Test func beaconsBeforeAMalformedStructureAreKept() {
        let data = ReferenceVectors.eidAdvert + [0x09, 0x09, 0x41]
        let contents = AdvertisingDataDecoder.decode(data[...])
        #expect(contents.beacons.count == 1)
        #expect(contents.errors.map(\.offset) == [ReferenceVectors.eidAdvert.count])
    }

    /// AD-10.
    @Test func txPowerLevelIsRead() {
        let contents = AdvertisingDataDecoder.decode(([0x02, 0x0A, 0xF4] + ReferenceVectors.eidAdvert)[...])
        #expect(contents.txPowerLevelDBm == -12)
    }
}
