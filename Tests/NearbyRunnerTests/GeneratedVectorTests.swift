import Foundation
import NearbyRunner
import NearbyTestSupport
import Testing

/// Vectors nobody has seen (`--generated N --seed S`) and blind runs (docs/spec/interop.md): the
/// reference passes every generated vector, an implementation that answers from `Vectors/`
/// passes almost none, the same seed gives the same vectors, and an implementation sees
/// neither the vector's id, nor its file's name, nor anything in its working directory.
@Suite(.serialized)
struct GeneratedVectorTests {
    static let fixtures = RepositoryPaths.root + "/Tests/Fixtures"

    /// Holds INTEROP-48.
    @Test func theReferenceAdapterPassesEveryGeneratedVector() throws {
        let tool = try #require(CommandLineTool.executable)
        let r = try CommandLineTool.run([
            "validate", "--implementation", "'\(tool)' adapter", "--generated", "500", "--seed", "7",
        ])
        #expect(r.status == 0, "\(r.stdout.suffix(2000))")
        #expect(r.stdout.contains("generated 500 vectors from seed 7"))
        #expect(r.stdout.contains("500 vectors: 500 passed, 0 failed, 0 errors, 0 skipped"))
    }

    /// The adapter looks each request up by id and by input in the repository's vectors: it
    /// passes most of them, so it works, and under a tenth of the generated ones.
    /// Holds INTEROP-48 and INTEROP-49.
    @Test func anAdapterAnsweringFromTheRepositoryPassesFewerThanATenthOfGeneratedVectors() throws {
        let lookup = "exec python3 '\(Self.fixtures)/lookup-adapter.py' '\(RepositoryPaths.root)/Vectors'"
        let generated = try CommandLineTool.run([
            "validate", "--implementation", lookup, "--generated", "500", "--seed", "7",
        ])
        let passed = try #require(Self.passed(generated.stdout), "\(generated.stdout.suffix(500))")
        #expect(passed < 50, "\(passed) of 500 generated vectors passed")
        let frames = try CommandLineTool.run([
            "validate", "--implementation", lookup, RepositoryPaths.root + "/Vectors/frames",
        ])
        let total = try #require(Self.count(frames.stdout, "vectors: "))
        let framesPassed = try #require(Self.passed(frames.stdout))
        #expect(framesPassed * 10 >= total * 9, "it answers \(framesPassed) of \(total) repository frames by input")
    }

    /// With a path the generated vectors run beside it, and `--keep-generated` leaves them to
    /// read and run again. Holds INTEROP-49.
    @Test func generatedVectorsRunBesidePathsAndCanBeKept() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let token = RepositoryPaths.root + "/Vectors/frames/token.json"
        let own = VectorSet.load([token]).vectors.count
        let kept = dir.file("kept")
        let r = try CommandLineTool.run(["check", "--generated", "20", "--seed", "3", "--keep-generated", kept, token])
        #expect(r.status == 0, "\(r.stdout.suffix(800))")
        #expect(r.stdout.contains("\(own + 20) vectors: \(own + 20) passed"))
        let again = try CommandLineTool.run(["check", kept + "/generated-3.json"])
        #expect(again.stdout.contains("20 vectors: 20 passed"), "\(again.stdout.suffix(800))")
    }

    /// An implementation that finds no beacon fails every generated frame: each failure names
    /// the seed and gives the AD data left when the structures a decoder passes over (Flags,
    /// UUID lists, names, Tx power: AD-5) are removed, none of which it still holds.
    /// Holds INTEROP-50.
    @Test func aFailedGeneratedFrameComesWithItsSeedAndItsMinimizedInput() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let impl = dir.write(
            Array(
                """
                import json, sys
                for line in sys.stdin:
                    r = json.loads(line)
                    if "hello" in r:
                        print(json.dumps({"hello": {"protocol": 1, "name": "blind", "version": "1",
                                                    "levels": ["frames"]}}), flush=True)
                    else:
                        print(json.dumps({"id": r["id"], "beacons": []}), flush=True)
                """.utf8), to: "blind.py")
        let r = try CommandLineTool.run([
            "validate", "--implementation", "exec python3 -u '\(impl)'", "--generated", "30", "--seed", "4",
        ])
        #expect(r.status == 1)
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.hasPrefix("FAIL generated/frame/") }.count == 15)
        #expect(lines.filter { $0.contains("generated: generated from seed 4:") }.count == 15)
        let minimized = lines.compactMap { line -> String? in
            guard let r = line.range(of: "still failing: adData ") else { return nil }
            return String(line[r.upperBound...].prefix { $0 != " " })
        }
        #expect(!minimized.isEmpty, "\(r.stdout.suffix(1500))")
        for hex in minimized {
            var at = 0
            let digits = Array(hex)
            let bytes = stride(from: 0, to: digits.count - 1, by: 2).compactMap {
                UInt8(String(digits[$0...($0 + 1)]), radix: 16)
            }
            while at + 1 < bytes.count {
                #expect(
                    ![0x01, 0x02, 0x03, 0x08, 0x09, 0x0A].contains(bytes[at + 1]), "\(hex) keeps type \(bytes[at + 1])")
                at += 1 + Int(bytes[at])
            }
        }
    }

    /// Holds INTEROP-48.
    @Test func theSameSeedGivesTheSameVectorsAndAnotherSeedOthers() throws {
        let a = TemporaryDirectory(), b = TemporaryDirectory(), c = TemporaryDirectory()
        defer { [a, b, c].forEach { $0.remove() } }
        let fa = try GeneratedVectors.write(count: 60, seed: 42, to: a.path)
        let fb = try GeneratedVectors.write(count: 60, seed: 42, to: b.path)
        let fc = try GeneratedVectors.write(count: 60, seed: 43, to: c.path)
        let read = { (p: String) in try Data(contentsOf: URL(fileURLWithPath: p)) }
        #expect(try read(fa) == read(fb))
        #expect(try read(fa) != read(fc))
        let set = VectorSet.load([fa])
        #expect(set.errors.isEmpty, "\(set.errors)")
        let plan = GeneratedVectors.plan(count: 60)
        #expect(plan == (frames: 30, captures: 6, scenarios: 24))
        #expect(set.vectors.filter { $0.kind == .capture }.count == 6)
        #expect(set.vectors.allSatisfy { $0.source == .synthesized && !$0.clauses.isEmpty })
    }

    /// The implementation writes what it sees to a file: the request ids, the capture's name,
    /// its working directory's entries; and answers each request `unsupported`.
    /// Holds INTEROP-18, INTEROP-46 and INTEROP-47.
    @Test func anImplementationSeesNoVectorIdNoFileNameAndAnEmptyWorkingDirectory() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let seen = dir.file("seen.jsonl")
        let impl = dir.write(
            Array(
                """
                import json, os, sys
                out = open(sys.argv[1], "a")
                out.write(json.dumps({"cwd": os.getcwd(), "entries": os.listdir(".")}) + "\\n")
                for line in sys.stdin:
                    r = json.loads(line)
                    if "hello" in r:
                        print(json.dumps({"hello": {"protocol": 1, "name": "spy", "version": "1",
                                                    "levels": ["frames", "captures", "events"]}}), flush=True)
                        continue
                    out.write(json.dumps({"id": r["id"], "capture": r.get("capture"),
                                          "description": (r.get("scenario") or {}).get("description")}) + "\\n")
                    out.flush()
                    print(json.dumps({"id": r["id"], "unsupported": "spying"}), flush=True)
                """.utf8), to: "spy.py")
        let vectors = RepositoryPaths.root + "/Vectors"
        let r = try CommandLineTool.run([
            "validate", "--implementation", "exec python3 -u '\(impl)' '\(seen)'",
            vectors + "/captures/fixtures.json", vectors + "/scenarios/rules.json",
        ])
        #expect(r.status == 5, "every vector is skipped: \(r.stdout.suffix(800))")
        let lines = try String(contentsOfFile: seen, encoding: .utf8).split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        let start = try #require(lines.first)
        #expect(start["entries"] as? [String] == [], "the working directory is empty")
        #expect((start["cwd"] as? String)?.hasPrefix(RepositoryPaths.root) == false)
        let requests = lines.dropFirst()
        #expect(requests.count >= 3)
        for request in requests {
            let id = try #require(request["id"] as? String)
            #expect(!id.contains("/") && !id.contains("fixture"), "an opaque id, not the vector's: \(id)")
            if let capture = request["capture"] as? String {
                let name = capture.split(separator: "/").last.map(String.init) ?? ""
                #expect(name.hasPrefix("input-") && !capture.contains("Captures/"), "a neutral copy: \(capture)")
            }
            #expect(request["description"] == nil || request["description"] is NSNull)
        }
    }

    static func count(_ text: String, _ marker: String) -> Int? {
        guard let line = text.split(separator: "\n").last(where: { $0.contains(marker) }) else { return nil }
        return Int(line.prefix { $0.isNumber })
    }

    static func passed(_ text: String) -> Int? {
        guard let line = text.split(separator: "\n").last(where: { $0.contains(" passed,") }),
            let r = line.range(of: "vectors: ")
        else { return nil }
        return Int(line[r.upperBound...].prefix { $0.isNumber })
    }
}
