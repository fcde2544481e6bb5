import NearbyConformance
import NearbyTestSupport
import Testing

/// `CaptureFile.stream()`: the same values as `decoded()`, as they are read, in bounded memory.
@Suite struct CaptureStreamTests {
    /// The largest synthesized capture: more advertisements than the stream's buffer holds.
    static let crowded = RepositoryPaths.root + "/Captures/synthetic/crowded/crowded-201.pcap"

    @Test(arguments: [crowded, RepositoryPaths.root + "/Captures/fixtures/hci-h4-1002.btsnoop"])
    func streamGivesWhatDecodedGivesInFileOrder(path: String) async throws {
        let whole = try CaptureFile(path: path).decoded()
        var advertisements: [CapturedAdvertisement] = []
        var issues: [CaptureIssue] = []
        var end: RecordCounts?
        for try await item in CaptureFile(path: path).stream() {
            #expect(end == nil, "nothing comes after the end")
            switch item {
            case .advertisement(let a): advertisements.append(a)
            case .issue(let i): issues.append(i)
            case .end(let records): end = records
            }
        }
        #expect(advertisements == whole.advertisements)
        #expect(issues == whole.issues)
        #expect(end == whole.records)
    }

    @Test func theCrowdedCaptureHasMoreAdvertisementsThanTheBufferHolds() throws {
        #expect(try CaptureFile(path: Self.crowded).decoded().advertisements.count > 3 * CaptureStream.bufferLimit)
    }

    @Test func endingEarlyLeavesTheNextStreamWorking() async throws {
        for _ in 0..<3 {
            var seen = 0
            for try await _ in CaptureFile(path: Self.crowded).stream() {
                seen += 1
                if seen == 10 { break }
            }
            #expect(seen == 10)
        }
    }

    /// The decoder fills the buffer and waits for room; ending the iteration then must let
    /// it go and leave its semaphore as it was made (libdispatch traps on a semaphore
    /// released below its initial value).
    @Test func endingEarlyWhileTheDecoderWaitsForRoomLetsItGo() async throws {
        for _ in 0..<3 {
            for try await _ in CaptureFile(path: Self.crowded).stream() {
                // Long enough for the decoder to fill the buffer and wait for room.
                try await Task.sleep(for: .milliseconds(300))
                break
            }
        }
        // The decoders finish on their own queue once they are let go.
        try await Task.sleep(for: .milliseconds(500))
    }

    @Test func anUnreadableFileThrowsBeforeAnyItem() async {
        var items = 0
        await #expect(throws: ConformanceError.self) {
            for try await _ in CaptureFile(path: "/nonexistent/capture.pcap").stream() { items += 1 }
        }
        #expect(items == 0)
    }
}
