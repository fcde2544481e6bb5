import Foundation
import NearbyTestSupport
import Testing

/// Every output mode of the commands, byte for byte, against files in `Tests/Golden/`
/// written by the implementation before the byte writer (commit 4e1d847's JSONValue trees),
/// changed since only by additions (decode's `ad` member and table header, replay's time
/// origin line): JSON lines and tables of `decode` (captures, sound files,
/// `--summary`, `--beacons-only`, `--registry`), `replay` in both formats, and `check`'s text
/// and JSON reports. Two cases put escapes, control characters, non-BMP characters and
/// decomposed accents into file names and scenario strings; the captures bring negative and
/// fractional numbers and nulls. `NEARBY_WRITE_GOLDEN=1 swift test --filter GoldenOutputTests`
/// rewrites the files (only for a deliberate change of the output, said in the commit).
@Suite(.serialized) struct GoldenOutputTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var arguments: [String]
        var status: Int32
        /// A report file the command writes (relative to the directory it runs in), compared too.
        var report: String? = nil
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "decode-fixtures.jsonl", arguments: ["decode", "--summary", "Captures/fixtures"], status: 0),
        Case(
            name: "decode-fixtures.table",
            arguments: ["decode", "--format", "table", "--summary", "Captures/fixtures"], status: 0),
        Case(
            name: "decode-bumble-beacons.jsonl", arguments: ["decode", "--beacons-only", "Captures/bumble"], status: 0),
        Case(
            name: "decode-audio.jsonl",
            arguments: ["decode", "--intervals", "--summary", "Captures/synthetic/audio-notes/audio-notes.flac"],
            status: 0),
        Case(
            name: "decode-audio.table",
            arguments: [
                "decode", "--format", "table", "--intervals", "--summary",
                "Captures/synthetic/audio-notes/audio-notes.flac",
            ], status: 0),
        Case(
            name: "replay-office-walk.jsonl",
            arguments: [
                "replay", "--scenario", "Captures/synthetic/office-walk.scenario.json", "--capture",
                "Captures/synthetic/office-walk/office-walk-201.pcap",
            ], status: 0),
        Case(
            name: "replay-office-walk.table",
            arguments: [
                "replay", "--format", "table", "--scenario", "Captures/synthetic/office-walk.scenario.json",
                "--capture", "Captures/synthetic/office-walk/office-walk-201.pcap",
            ], status: 0),
        Case(
            name: "replay-audio-meeting.jsonl",
            arguments: [
                "replay", "--scenario", "Captures/synthetic/audio-meeting.scenario.json", "--capture",
                "Captures/synthetic/audio-meeting/audio-meeting.btsnoop", "--audio",
                "Captures/synthetic/audio-meeting/audio-meeting.flac",
            ], status: 0),
    ]

    /// A file name with a quote, a backslash, a tab, a bell, a decomposed é and a non-BMP
    /// character; JSON must escape the first four (RFC 8259 §7) and pass the rest as UTF-8.
    static let oddName = "odd \"q\" back\\slash\ttab\u{7}bell e\u{301} \u{1F600}.pcap"

    /// A scenario whose subscription id and message namespace and type need escapes.
    static let oddScenario = #"""
        {"scenario": 1, "registry": {"registry": 1, "beacons": [
          {"advertisedId": {"type": "EDDYSTONE", "id": "ASNFZ4mrze8BI0VniavN7w=="},
           "attachments": [{"namespacedType": "ns \"q\" \\ \u0001 \ud83d\ude00/ty\tpe e\u0301", "data": "ZnJvbnQ="}]}
        ]}, "events": [
          {"time": 0, "subscribe": {"id": "s \"q\" \\ \u001f \ud83d\ude00", "deviceTypesToDiscover": ["bleBeacons"],
           "messageNamespace": "ns \"q\" \\ \u0001 \ud83d\ude00", "type": "ty\tpe e\u0301"}},
          {"time": 1.25, "sighting": {"eddystoneUid": "0123456789abcdef0123456789abcdef", "rssi": -70}}
        ]}
        """#

    /// Two vectors, one failing, with strings that need escapes in the reports.
    static let oddVectors = #"""
        {"vectorFile": 1, "vectors": [
          {"id": "odd/pass", "kind": "frame", "description": "An empty AD holds no beacon \t.",
           "clauses": ["AD-1"], "flags": [], "source": "hand", "verdict": "valid",
           "input": {"adData": ""}, "expect": {"beacons": []}},
          {"id": "odd/fail", "kind": "frame", "description": "Expects a beacon that is not there.",
           "clauses": ["AD-1"], "flags": [], "source": "hand", "verdict": "valid",
           "input": {"adData": "020106"},
           "expect": {"beacons": [{"type": "ib \"q\" \\ \u0001 \ud83d\ude00 e\u0301", "major": -1, "minor": 0.5}]}}
        ]}
        """#

    @Test(arguments: cases) func outputIsByteForByteTheGoldenFile(_ c: Case) throws {
        let result = try CommandLineTool.run(c.arguments, in: RepositoryPaths.root)
        #expect(result.status == c.status, "\(result.stderr)")
        try Self.compare(Array(result.stdout.utf8), golden: c.name)
    }

    @Test func escapesInFileNamesAreWrittenAsBefore() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        try FileManager.default.copyItem(
            atPath: RepositoryPaths.root + "/Captures/fixtures/hci-h4-phdr-201.pcap", toPath: dir.file(Self.oddName))
        try Self.compareBothFormats("decode", [Self.oddName], in: dir.path, golden: "decode-odd-name")
    }

    @Test func escapesInScenarioStringsAreWrittenAsBefore() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        try Data(Self.oddScenario.utf8).write(to: URL(fileURLWithPath: dir.file("s.json")))
        let json = try Self.compareBothFormats(
            "replay", ["--scenario", "s.json"], in: dir.path, golden: "replay-odd-strings")
        #expect(json.stdoutLines.count == 2, "a subscription and one found: \(json.stdout)")
    }

    /// Runs `command arguments` as JSON and as a table in `directory`, expects both to succeed
    /// and compares them with `golden`.jsonl and `golden`.table; returns the JSON run.
    @discardableResult
    static func compareBothFormats(
        _ command: String, _ arguments: [String], in directory: String, golden: String
    ) throws -> CommandLineTool.Result {
        let json = try CommandLineTool.run([command] + arguments, in: directory)
        let table = try CommandLineTool.run([command, "--format", "table"] + arguments, in: directory)
        #expect(json.status == 0 && table.status == 0, "\(json.stderr)")
        try compare(Array(json.stdout.utf8), golden: golden + ".jsonl")
        try compare(Array(table.stdout.utf8), golden: golden + ".table")
        return json
    }

    @Test func checkReportsAreWrittenAsBefore() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        try Data(Self.oddVectors.utf8).write(to: URL(fileURLWithPath: dir.file("odd.json")))
        let result = try CommandLineTool.run(["check", "--json", "report.json", "odd.json"], in: dir.path)
        #expect(result.status == 1, "one vector fails: \(result.stderr)")
        try Self.compare(Array(result.stdout.utf8), golden: "check-odd.txt")
        try Self.compare(
            Array(try Data(contentsOf: URL(fileURLWithPath: dir.file("report.json")))), golden: "check-odd.json")
    }

    @Test func registryAnnotationsAreWrittenAsBefore() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let scenario = try Data(
            contentsOf: URL(fileURLWithPath: RepositoryPaths.root + "/Captures/synthetic/eid-rotation.scenario.json"))
        let registry = try #require((try JSONSerialization.jsonObject(with: scenario) as? [String: Any])?["registry"])
        try JSONSerialization.data(withJSONObject: registry).write(to: URL(fileURLWithPath: dir.file("registry.json")))
        // The first 400 records (about 40 s of the scenario: both registered beacons, a rotation
        // and eTLM frames), cut at a record boundary of the pcap file (24-byte file header, then
        // 16-byte record headers whose captured length is at offset 8, little-endian).
        let pcap = try [UInt8](
            Data(
                contentsOf: URL(
                    fileURLWithPath: RepositoryPaths.root + "/Captures/synthetic/eid-rotation/eid-rotation-201.pcap")))
        var end = 24
        for _ in 0..<400 where end + 16 <= pcap.count {
            end += 16 + (0..<4).reduce(0) { $0 | Int(pcap[end + 8 + $1]) << (8 * $1) }
        }
        try Data(pcap[0..<end]).write(to: URL(fileURLWithPath: dir.file("eid-rotation.pcap")))
        let result = try CommandLineTool.run(
            ["decode", "--beacons-only", "--registry", "registry.json", "eid-rotation.pcap"], in: dir.path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#""resolved":[{"beaconName":"#), "EIDs resolve")
        try Self.compare(Array(result.stdout.utf8), golden: "decode-registry.jsonl")
    }

    static func compare(_ output: [UInt8], golden name: String) throws {
        let path = RepositoryPaths.root + "/Tests/Golden/" + name
        if ProcessInfo.processInfo.environment["NEARBY_WRITE_GOLDEN"] == "1" {
            try Data(output).write(to: URL(fileURLWithPath: path))
            return
        }
        let golden = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let firstDifference =
            zip(output, golden).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            ?? min(output.count, golden.count)
        #expect(
            output == golden,
            Comment(
                rawValue: "Tests/Golden/\(name): \(output.count) bytes against \(golden.count), first "
                    + "difference at byte \(firstDifference)"))
    }
}
