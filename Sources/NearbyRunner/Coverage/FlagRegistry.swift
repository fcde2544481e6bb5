import NearbyJSON

/// The classes of input a vector's `flags` may name, each with what it means: the one
/// registry, Vectors/schema/flags.json (`{"flagRegistry": 1, "description": …, "flags":
/// {NAME: TEXT, …}}`).
public struct FlagRegistry: Sendable {
    /// Name → what the class is, in one sentence.
    public var flags: [String: String]

    public init(flags: [String: String]) { self.flags = flags }

    public static func load(_ path: String) throws(JSONInputError) -> FlagRegistry {
        let root: JSONNode
        do {
            root = try JSONFile.load(path)
        } catch {
            throw JSONInputError(path: "$", code: .invalidValue, reason: "\(path): \(error.reason)")
        }
        let o = try root.object(allowed: ["flagRegistry", "description", "flags"])
        _ = try o.required("flagRegistry").integer(in: 1...1)
        var flags: [String: String] = [:]
        let flagsNode = try o.required("flags")
        guard case .object(let fields) = flagsNode.value else { throw flagsNode.fail("expected an object") }
        for (name, node) in fields {
            guard case .string(let text) = node, !text.isEmpty else {
                throw JSONInputError(
                    path: flagsNode.member(name), code: .invalidValue, reason: "say what the class is, in a sentence")
            }
            flags[name] = text
        }
        return FlagRegistry(flags: flags)
    }
}
