import NearbyBytes
import NearbyMessages
import Testing

/// A sighting identity packs its bytes into words, at once from contiguous storage (arrays,
/// slices, `ShortBytes`) and byte by byte from other collections: both must give the same
/// identity, and `bytes` must give back what went in.
@Suite struct SightingIdentityTests {
    static let source: [UInt8] = (0..<24).map { UInt8(truncatingIfNeeded: $0 * 37 + 5) }

    @Test func packingIsTheSameFromEveryKindOfCollection() {
        for length in 0...24 {
            let array = Array(Self.source[0..<length])
            let fromArray = SightingIdentity(.token, array)
            let fromSlice = SightingIdentity(.token, Self.source[0..<length])
            let fromShort = SightingIdentity(.token, ShortBytes(array))
            let fromLazy = SightingIdentity(.token, array.lazy.map { $0 })  // not contiguous: byte by byte
            #expect(fromArray.bytes == array)
            #expect(fromSlice == fromArray && fromShort == fromArray && fromLazy == fromArray, "length \(length)")
        }
    }

    @Test func twoPartsPackAsTheirConcatenation() {
        for split in 0...16 {
            let uid = Array(Self.source[0..<16])
            let parts = SightingIdentity(.eddystoneUID, ShortBytes(uid[0..<split]), uid[split...])
            let partsLazy = SightingIdentity(
                .eddystoneUID, uid[0..<split].lazy.map { $0 }, uid[split...].lazy.map { $0 })
            #expect(parts == SightingIdentity(.eddystoneUID, uid) && partsLazy == parts, "split at \(split)")
            #expect(parts.bytes == uid)
        }
    }

    @Test func moreThan24BytesAreRefused() async {
        await #expect(processExitsWith: .failure) {
            _ = SightingIdentity(.token, [UInt8](repeating: 1, count: 20), [UInt8](repeating: 2, count: 5))
        }
    }
}
