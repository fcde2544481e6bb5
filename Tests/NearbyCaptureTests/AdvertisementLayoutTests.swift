import NearbyCapture
import Testing

/// The size of the value every decoded advertisement passes through: at most 128 bytes, a
/// copy or move is a handful of inline vector moves; beyond, each is a `memcpy` call
/// (docs/performance.md). A new stored property must find room in the padding or go in a
/// group such as `ExtendedReportDetails`.
@Suite struct AdvertisementLayoutTests {
    @Test func anAdvertisementFitsInOneInlineCopy() {
        #expect(MemoryLayout<Advertisement>.size <= 128, "\(MemoryLayout<Advertisement>.size) bytes")
    }

    @Test func extendedDetailsPackBehindTheFragmentCount() {
        #expect(MemoryLayout<ExtendedReportDetails?>.size <= 16, "\(MemoryLayout<ExtendedReportDetails?>.size) bytes")
    }
}
