import NearbyConformanceTesting
import XCTest

/// The same validation from XCTest: one failure per failing vector.
final class XCTestConformanceTests: XCTestCase {
    func testBeaconDecoderConformsToTheFrameVectors() {
        let report = ConformanceVectors.bundled.validate(
            BeaconDecoderConformanceTests.implementation, levels: [.frames], filter: "ibeacon")
        for failure in report.failures { XCTFail(failure.description) }
        XCTAssertGreaterThan(report.count(.passed), 10, report.description)
    }
}
