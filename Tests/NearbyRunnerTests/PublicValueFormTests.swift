import NearbyCapture
import NearbyDecode
import NearbyTestSupport
import Testing

/// The public value forms give what the package's lending forms lend, in the same order
/// (PublicAPITests holds the public API to values).
struct PublicValueFormTests {
    static let fixture = RepositoryPaths.root + "/Captures/fixtures/hci-h4-187.pcap"

    /// An advertisement, in words: where it came from and what it carried.
    static func describe(_ a: borrowing Advertisement) -> String {
        "\(a.record) \(a.address) \(a.data.map { Array($0) } ?? [])"
    }

    @Test func captureDecoderReturnsWhatItLends() throws {
        let values = try CaptureDecoder.decode(path: Self.fixture)
        var lent: [String] = []
        var issues: [String] = []
        let accounting = try CaptureDecoder.decode(
            path: Self.fixture, onAdvertisement: { lent.append(Self.describe($0.advertisement)) },
            onIssue: { issues.append("\($0)") })
        #expect(!lent.isEmpty)
        #expect(values.advertisements.map { Self.describe($0.advertisement) } == lent)
        #expect(values.issues.map { "\($0)" } == issues)
        #expect(values.accounting == accounting)
    }

    @Test func recordDecoderReturnsWhatItLends() throws {
        let reader = try CaptureFile.open(Self.fixture)
        var byValue = RecordDecoder(), lending = RecordDecoder()
        var returned: [String] = [], lent: [String] = []
        while case .record(let record)? = reader.next() {
            let (outcome, advertisements) = byValue.decode(record)
            returned += advertisements.map { Self.describe($0) }
            let lentOutcome = RecordDecoder.withSlot { slot in
                record.withView { lending.decode($0, building: slot) { lent.append(Self.describe(slot.pointee)) } }
            }
            #expect(lentOutcome == outcome)
        }
        returned += byValue.finish().map { Self.describe($0) }
        RecordDecoder.withSlot { slot in lending.finish(building: slot) { lent.append(Self.describe(slot.pointee)) } }
        #expect(!lent.isEmpty)
        #expect(returned == lent)
    }
}
