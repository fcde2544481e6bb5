import Foundation
import NearbyRunner
import NearbyTestSupport
import Testing

/// Every vector file validates against `Vectors/schema/vectors.schema.json` with an
/// independent JSON Schema implementation (Python `jsonschema`, which `Scripts/bootstrap`
/// installs), and the schema rejects what the runner rejects.
@Suite(.enabled(if: PythonJSONSchema.available, "python3 with jsonschema is not installed"))
struct VectorSchemaTests {
    static let validator = """
        import json, sys, jsonschema
        schema = json.load(open(sys.argv[1]))
        jsonschema.Draft202012Validator.check_schema(schema)
        v = jsonschema.Draft202012Validator(schema)
        bad = 0
        for f in sys.argv[2:]:
            for e in v.iter_errors(json.load(open(f))):
                bad += 1
                print(f, "/".join(map(str, e.absolute_path)), e.message[:200])
        sys.exit(1 if bad else 0)
        """

    static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        try PythonJSONSchema.run(arguments)
    }

    static var schemaPath: String { RepositoryPaths.root + "/Vectors/schema/vectors.schema.json" }

    @Test func everyVectorFileValidatesAgainstTheSchema() throws {
        let files = Set(VectorSet.load([RepositoryPaths.root + "/Vectors"]).vectors.map(\.file)).sorted()
        #expect(files.count >= 6)
        let r = try Self.run(["-c", Self.validator, Self.schemaPath] + files)
        #expect(r.status == 0, "\(r.output)")
    }

    @Test func theSchemaNamesExactlyTheFlagsOfTheRegistry() throws {
        let root = RepositoryPaths.root
        let registry = try FlagRegistry.load(root + "/Vectors/schema/flags.json")
        let schema = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: Self.schemaPath)))
                as? [String: Any])
        let defs = try #require(schema["$defs"] as? [String: Any])
        let flag = try #require(defs["flag"] as? [String: Any])
        let names = try #require(flag["enum"] as? [String])
        #expect(names == registry.flags.keys.sorted(), "the schema's $defs.flag.enum is the registry's names, sorted")
    }

    @Test func schemaRejectsAnUnknownFieldAndAMissingExpectation() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let a = dir.write(
            Array(
                (#"{"vectorFile": 1, "vectors": [{"id": "x", "kind": "frame", "description": "d", "input": "#
                    + #"{"adData": ""}, "clauses": ["AD-1"], "flags": [], "source": "hand", "verdict": "valid", "#
                    + #""expect": {"beacons": []}, "colour": 1}]}"#)
                    .utf8), to: "a.json")
        let b = dir.write(
            Array(
                (#"{"vectorFile": 1, "vectors": [{"id": "y", "kind": "scenario", "description": "d", "scenario": "#
                    + #"{"scenario": 1}, "clauses": ["ENGINE-O1"], "flags": [], "source": "hand", "verdict": "valid"}]}"#)
                    .utf8), to: "b.json")
        // No clauses; and a fault expected of a vector said to be valid (Vectors/README.md).
        let c = dir.write(
            Array(
                (#"{"vectorFile": 1, "vectors": [{"id": "z", "kind": "frame", "description": "d", "input": "#
                    + #"{"adData": ""}, "flags": [], "source": "hand", "verdict": "valid", "#
                    + #""expect": {"beacons": []}}]}"#).utf8), to: "c.json")
        let d = dir.write(
            Array(
                (#"{"vectorFile": 1, "vectors": [{"id": "w", "kind": "frame", "description": "d", "input": "#
                    + #"{"adData": "0201060503aafe"}, "clauses": ["AD-1"], "flags": [], "source": "hand", "#
                    + #""verdict": "valid", "expect": {"error": {"code": "ad/length-overrun", "offset": 3}}}]}"#).utf8),
            to: "d.json")
        for file in [a, b, c, d] {
            #expect(
                try Self.run(["-c", Self.validator, Self.schemaPath, file]).status == 1, "the schema rejects \(file)")
            #expect(VectorSet.load([file]).errors.count == 1, "the runner rejects \(file) too")
        }
    }
}

enum PythonJSONSchema {
    static let available = Python.has(["jsonschema"])

    static func run(_ arguments: [String]) throws -> (status: Int32, output: String) { try Python.run(arguments) }
}
