import Foundation
import NearbyAudio
import NearbyBytes
import NearbyCapture
import NearbyTestSupport
import Testing

@testable import NearbyFuzzTargets

/// The fuzz targets as `swift test` sees them: each has seeds from the repository, its
/// executable, dictionary and regression folder in `Fuzz/`; every seed and every crash
/// fixture in `Fuzz/Regressions/` keeps every invariant; and the invariants do catch what
/// they are there to catch.
@Suite struct FuzzTargetTests {
    static let root = RepositoryPaths.root
    static let names = FuzzTarget.all.map(\.name)

    static func regressions(_ target: String) -> [String] {
        let folder = root + "/Fuzz/Regressions/" + target
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { !$0.hasPrefix(".") && $0 != "README.md" }.sorted().map { folder + "/" + $0 }
    }

    @Test func everyTargetHasAnExecutableADictionaryAndARegressionFolder() throws {
        #expect(Set(Self.names).count == Self.names.count, "target names repeat")
        let package = try String(contentsOfFile: Self.root + "/Fuzz/Package.swift", encoding: .utf8)
        for target in FuzzTarget.all {
            let main = Self.root + "/Fuzz/Sources/fuzz-\(target.name)/main.swift"
            let source = try? String(contentsOfFile: main, encoding: .utf8)
            #expect(
                source?.contains("FuzzTarget.named(\"\(target.name)\")") == true,
                "\(main) does not run target \(target.name)")
            #expect(package.contains("\"fuzz-\(target.name)\""), "Fuzz/Package.swift has no fuzz-\(target.name)")
            #expect(FileManager.default.fileExists(atPath: Self.root + "/Fuzz/Dictionaries/\(target.dictionary).dict"))
        }
    }

    @Test(arguments: names)
    func seedsComeFromTheRepositoryAndKeepEveryInvariant(_ name: String) {
        let target = FuzzTarget.named(name)!
        let seeds = target.seeds(Self.root).filter { $0.count <= target.maximumLength }
        #expect(!seeds.isEmpty, "\(name): no seeds")
        for (i, seed) in seeds.enumerated() {
            let violations = target.check(seed)
            #expect(violations.isEmpty, "\(name) seed \(i): \(violations)")
        }
    }

    @Test(arguments: names)
    func crashFixturesKeepEveryInvariant(_ name: String) throws {
        let target = FuzzTarget.named(name)!
        for path in Self.regressions(name) {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            let violations = target.check(bytes)
            #expect(violations.isEmpty, "\(path): \(violations)")
        }
    }

    @Test func recordStreamsSplitAsTheyAreJoined() throws {
        let stream = RecordStream(encapsulations: [.pcap(.bluetoothHCIH4), .hexText])
        let records: [[UInt8]] = [[0x04, 0x3E, 0x00], [], Array(repeating: 0xAB, count: 300)]
        let joined = try #require(stream.join(.hexText, records))
        let split = joined.withUnsafeBytes { stream.split($0) }
        #expect(split?.0 == .hexText)
        #expect(split?.1 == records)
        #expect(stream.join(.pcap(.nordicBLE), records) == nil)
        // A last record cut short keeps what there is.
        let cut = Array(joined.dropLast(100))
        #expect(cut.withUnsafeBytes { stream.split($0) }?.1.last?.count == 200)
    }

    @Test func invariantsCatchMisplacedAndUnexplainedErrors() {
        #expect(FuzzTarget.checkError(DecodeError(.adStructure, .truncated, at: 3, "AD length"), within: 10).isEmpty)
        #expect(
            FuzzTarget.checkError(DecodeError(.adStructure, .truncated, at: 11, "AD length"), within: 10).count == 1)
        #expect(FuzzTarget.checkError(DecodeError(.adStructure, .truncated, at: -1, ""), within: 10).count == 2)
    }

    @Test func theCaptureCheckFindsAnUnbalancedOrUnreadableFile() {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let junk = CaptureDecodeCheck.run(path: dir.write(Array("not a capture".utf8), to: "junk.bin"))
        #expect(junk.unreadable != nil)
        #expect(junk.violations.isEmpty)
        let fixture = CaptureDecodeCheck.run(path: Self.root + "/Captures/fixtures/hci-h4-187.pcap")
        #expect(fixture.accounting?.recordsRead ?? 0 > 0)
        #expect(fixture.violations.isEmpty)
    }

    /// A reader of three records that loses the second in a run when `dropsInRuns`.
    final class ThreeRecords: CaptureRecordReader {
        let format = CaptureFormat.pcap
        var encapsulationDescription: String { "LINKTYPE 201" }
        let records: [CaptureRecord] = (1...3).map {
            CaptureRecord(
                RecordMetadata(
                    index: $0, timestampMicros: Int64($0), encapsulation: .pcap(.bluetoothHCIH4WithPHDR),
                    originalLength: $0),
                bytes: Array(repeating: UInt8($0), count: $0)[...])
        }
        let dropsInRuns: Bool
        var next = 0

        init(dropsInRuns: Bool) { self.dropsInRuns = dropsInRuns }

        /// Lends records while `body` returns true; in a run, the second is lost.
        func read(_ body: (borrowing RecordView) -> Bool) -> CaptureReadStep {
            while next < records.count {
                next += 1
                let more = records[next - 1].withView { body($0) }
                if more && dropsInRuns && next == 1 { next += 1 }
                guard more else { return .record }
            }
            return .end
        }
    }

    @Test func theRunCheckFindsARecordLostInRuns() {
        #expect(RunReadCheck.violations { ThreeRecords(dropsInRuns: false) }.isEmpty)
        let lost = RunReadCheck.violations { ThreeRecords(dropsInRuns: true) }
        #expect(lost.count == 1)
        #expect(lost.first?.hasPrefix("step 2: ") == true, "\(lost)")
        let fixture = Self.root + "/Captures/fixtures/hci-h4-187.pcap"
        #expect(RunReadCheck.violations(path: fixture).isEmpty)
    }

    /// The first crash the fuzzer found (capture-pcapng, in 5 s): a pcapng timestamp whose
    /// seconds overflow Int64 microseconds trapped; the record is now malformed, with a reason.
    @Test func aTimestampBeyondInt64MicrosecondsIsAMalformedRecord() {
        let result = CaptureDecodeCheck.run(path: Self.root + "/Fuzz/Regressions/capture-pcapng/timestamp-overflow")
        #expect(result.violations.isEmpty)
        #expect(result.accounting?.malformedByReason["pcap/invalid-value"] ?? 0 >= 1)
    }

    @Test func theRoundTripCheckAcceptsWhatTheParserReads() {
        let text = Array(#"{"a":[1,-0.5e3,"\u00e9\n",true,null,{}],"b":"x"}"#.utf8)
        #expect(text.withUnsafeBytes { FuzzTarget.checkRoundTrip($0) }.isEmpty)
    }

    @Test func aCodewordWithTwoWrongBytesIsCorrectedAndAccountedFor() throws {
        var input = try NUTFrameCoding.symbols(token: Array(0..<8)).map { UInt8($0) | 0xF0 }
        // Two codeword bytes wrong in both nibbles, marked unreliable: corrected as erasures.
        for i in [3, 4, 9, 10] { input[i] = (input[i] & 0x0F) ^ 0x05 }
        let decoded = NUTFrameCoding.decode(
            symbols: input.map { Int($0 & 0x0F) }, reliability: input.map { Float($0 >> 4) })
        #expect(decoded?.token == Array(0..<8))
        #expect(decoded?.correctedBytes == 2)
        #expect(FuzzTarget.nutCodeword.check(input).isEmpty)
    }
}

extension FuzzTargetTests {
    /// The damage invariant excuses the records under another reading of the bytes
    /// (`DamageLocalityCheck.otherReadings`), and only those: two or more records read one
    /// after another, none a clean record, each starting where the one before ends, the last
    /// ending exactly at the end of the file or where a clean record read next starts
    /// (`Fuzz/Regressions/capture-btsnoop/another-reading-inside-the-records` and
    /// `headers-that-tile-a-record-after-inserted-bytes` are such files).
    @Test func onlyAnotherReadingOfTheBytesExcusesLostRecords() throws {
        let path = Self.root + "/Fuzz/Regressions/capture-btsnoop/damage-within-the-run-after-a-clock-step"
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let layout = try #require(CaptureLayout(path: path, bytes: bytes))
        // Clean records whose data starts at 124, 377 and 630 of a 883-byte damaged file.
        let damaged = CaptureDamage(
            kind: .zeroBlock, bytes: [UInt8](repeating: 0, count: 883), damage: 50..<60,
            placements: [(0, 100..<353), (1, 353..<606), (2, 606..<859)], touched: 50..<60)
        // The damage and its margin end at 84.
        func excused(_ read: [(data: Int, end: Int)], after: Int = 84) -> [Range<Int>] {
            DamageLocalityCheck.otherReadings(read, damaged, layout, after: after)
        }
        // Two records from inside the clean ones, the last ending at the end of the file.
        #expect(excused([(124, 353), (200, 500), (524, 883)]) == [176..<883])
        // Two that tile the second clean record's bytes, then the third clean record.
        #expect(excused([(124, 353), (400, 480), (504, 606), (630, 859)]) == [376..<606])
        // Such records that start within the damage's reach are the damage's own reading.
        #expect(excused([(124, 353), (400, 480), (504, 606), (630, 859)], after: 400).isEmpty)
        // One such record is no run; one that ends before the end of the file and before no
        // clean record is no reading; nor records with a gap between them, or between the last
        // of them and the clean record read next.
        #expect(excused([(124, 353), (524, 883)]).isEmpty)
        #expect(excused([(124, 353), (400, 606), (630, 859)]).isEmpty)
        #expect(excused([(200, 500), (524, 800)]).isEmpty)
        #expect(excused([(124, 353), (400, 470), (504, 606), (630, 859)]).isEmpty)
        #expect(excused([(200, 500), (524, 600), (630, 883)]).isEmpty)
    }
}
