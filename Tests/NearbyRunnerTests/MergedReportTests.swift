import Foundation
import NearbyJSON
import NearbyRunner
import NearbyTestSupport
import Testing

/// `merge-reports`: the JSON reports of the shards of a run merge into the report of the
/// run without shards (CheckSession: results sorted by id, then file).
@Suite struct MergedReportTests {
    static let subject = CheckReport.Subject(name: "impl", version: "1.2", command: "python3 adapter.py")

    /// Results in no particular order, with every status, details and a vector id found in two files.
    static let results: [VectorResult] = [
        VectorResult(id: "frames/uid", kind: "frame", file: "Vectors/frames.json", status: .pass),
        VectorResult(
            id: "frames/tlm", kind: "frame", file: "Vectors/frames.json", status: .fail, message: "temperature",
            details: ["expected 25.5", "found 281.5"]),
        VectorResult(id: "scenario/a1", kind: "scenario", file: "Vectors/b.json", status: .skipped, message: "audio"),
        VectorResult(id: "scenario/a1", kind: "scenario", file: "Vectors/a.json", status: .pass),
        VectorResult(id: "captures/x", kind: "capture", file: "Vectors/c.json", status: .error, message: "\"quoted\""),
    ]

    static func writeShards(_ dir: TemporaryDirectory, count: Int, subject: CheckReport.Subject?) -> [String] {
        (0..<count).map { k in
            let shard = results.enumerated().filter { $0.offset % count == k }.map(\.element)
            return dir.write(Array(CheckReport.json(shard, implementation: subject).utf8), to: "shard-\(k).json")
        }
    }

    @Test(arguments: [1, 2, 3, 5])
    func shardsMergeIntoTheReportOfTheWholeRun(shards: Int) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let merged = try MergedReport(paths: Self.writeShards(dir, count: shards, subject: Self.subject).reversed())
        let sorted = Self.results.sorted { ($0.id, $0.file) < ($1.id, $1.file) }
        #expect(merged.results == sorted)
        #expect(merged.implementation == Self.subject)
        #expect(
            CheckReport.json(merged.results, implementation: merged.implementation)
                == CheckReport.json(sorted, implementation: Self.subject))
    }

    @Test func aVectorInTwoReportsIsRefusedAsAnOverlap() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let shards = Self.writeShards(dir, count: 2, subject: nil)
        let error = #expect(throws: MergedReport.Failure.self) {
            try MergedReport(paths: [shards[0], shards[1], shards[0]])
        }
        #expect(error?.code == "overlap", "\(String(describing: error))")
    }

    @Test func reportsAboutDifferentImplementationsAreRefused() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let a = Self.writeShards(dir, count: 2, subject: Self.subject)[0]
        let b = dir.write(Array(CheckReport.json([], implementation: nil).utf8), to: "check.json")
        let error = #expect(throws: MergedReport.Failure.self) { try MergedReport(paths: [a, b]) }
        #expect(error?.code == "implementations")
    }

    @Test func aReportWhoseTotalDisagreesWithItsVectorsIsRefused() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let text = CheckReport.json(Self.results, implementation: nil).replacingOccurrences(
            of: "\"total\":5", with: "\"total\":4")
        let path = dir.write(Array(text.utf8), to: "cut.json")
        let error = #expect(throws: MergedReport.Failure.self) { try MergedReport(paths: [path]) }
        #expect(error?.code == "unusable")
        #expect("\(String(describing: error))".contains("total is 4 but the report lists 5 vectors"))
    }

    /// The command as CI runs it: `check --shard K/3 --json` three times, then
    /// `merge-reports`, against one `check --json` over the same vectors.
    @Test func mergeReportsOfCheckShardsEqualsTheUnshardedCheck() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let vectors = RepositoryPaths.root + "/Vectors/frames"
        let whole = try CommandLineTool.run(["check", vectors, "--json", dir.file("whole.json")])
        #expect(whole.status == 0, "\(whole.stderr)")
        var shards: [String] = []
        for k in 1...3 {
            let path = dir.file("shard-\(k).json")
            let r = try CommandLineTool.run(["check", vectors, "--shard", "\(k)/3", "--json", path])
            #expect(r.status == 0, "\(r.stderr)")
            shards.append(path)
        }
        let merged = try CommandLineTool.run(["merge-reports"] + shards + ["--json", dir.file("merged.json")])
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(merged.stdout == whole.stdout)
        let expected = try Data(contentsOf: URL(fileURLWithPath: dir.file("whole.json")))
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir.file("merged.json"))) == expected)
        #expect(expected.count > 1000, "the frame vectors ran")
    }
}
