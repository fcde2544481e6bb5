import NearbyJSON
import NearbyMessages
import NearbyRunner

/// The JSON input targets: vector files, scenarios and registries, each read from a file as
/// `check`, `replay` and `validate` read them. A bad file must give errors with a location
/// and a reason; and whatever the strict parser accepts must read back the same from its
/// own serialization.
extension FuzzTarget {
    /// A vector file (Vectors/README.md; `Vectors/schema/vectors.schema.json`).
    public static let vectorJSON = FuzzTarget(
        name: "vector-json", summary: "a vector file", dictionary: "json", maximumLength: 16_384,
        check: { input in
            let path = ScratchFile.write(input, suffix: ".json")
            var violations = checkRoundTrip(input)
            for error in VectorSet.load([path]).errors where error.reason.isEmpty {
                violations.append("a vector error without a reason: \(error)")
            }
            return violations
        },
        seeds: { root in
            // Whole vector files, and each vector of the larger ones as a file of its own.
            SeedSource.contents(
                SeedSource.files(root, "Vectors", suffixes: [".json"]).filter { !$0.contains("/schema/") }
            ).flatMap { bytes -> [[UInt8]] in
                guard bytes.count > 16_384, case .object(let file)? = try? JSONParser.parse(bytes),
                    case .array(let vectors)? = file["vectors"]
                else { return [bytes] }
                return vectors.map { v in
                    Array(JSONValue.object(["vectorFile": .integer(1), "vectors": .array([v])]).serialized.utf8)
                }
            }
        })

    /// A scenario (docs/scenario-format.md), with its registry inline.
    public static let scenarioJSON = FuzzTarget(
        name: "scenario-json", summary: "a scenario file", dictionary: "json", maximumLength: 16_384,
        check: { input in
            var violations = checkRoundTrip(input)
            let path = ScratchFile.write(input, suffix: ".scenario.json")
            do throws(JSONInputError) {
                // Parsed as `Scenario.load` does, without following a registry path: the
                // registry-json target reads registries, and a path could name any file here.
                var registryPath: String?
                _ = try Scenario(json: try JSONFile.load(path), registryPath: &registryPath)
            } catch {
                // The file reads (it was just written): every error has a line or a JSON path.
                if error.reason.isEmpty || error.location.isEmpty || error.code.rawValue.isEmpty {
                    violations.append("a scenario error without a reason, location or code: \(error)")
                }
            }
            return violations
        },
        seeds: { root in SeedSource.contents(SeedSource.files(root, "Captures", suffixes: [".scenario.json"])) })

    /// A registry (docs/scenario-format.md, "Registry"): publications and beacons with attachments.
    public static let registryJSON = FuzzTarget(
        name: "registry-json", summary: "a registry file", dictionary: "json", maximumLength: 16_384,
        check: { input in
            var violations = checkRoundTrip(input)
            do throws(JSONInputError) {
                _ = try Scenario.loadRegistry(ScratchFile.write(input, suffix: ".registry.json"))
            } catch {
                if error.reason.isEmpty || error.code.rawValue.isEmpty {
                    violations.append("a registry error without a reason or code: \(error)")
                }
            }
            return violations
        },
        seeds: { root in
            SeedSource.contents(SeedSource.files(root, "Captures", suffixes: [".scenario.json"])).compactMap { bytes in
                guard case .object(let o)? = try? JSONParser.parse(bytes), let registry = o["registry"] else {
                    return nil
                }
                return Array(registry.serialized.utf8)
            }
        })

    /// What the parser accepts must parse back to the same value from its serialization.
    static func checkRoundTrip(_ input: UnsafeRawBufferPointer) -> [String] {
        guard let value = try? JSONParser.parse(Array(input)) else { return [] }
        let text = value.serialized
        guard let again = try? JSONParser.parse(Array(text.utf8)) else {
            return ["the parser rejects its own serialization: \(text.prefix(200))"]
        }
        return again == value ? [] : ["a value does not survive serialization: \(text.prefix(200))"]
    }
}
