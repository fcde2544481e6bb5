import Foundation
import NearbyConformance
import NearbyTestSupport

/// A vector read from `Vectors/` as values: the expectations the tests compare with.
struct VectorFile {
    var id: String
    var expect: [String: FieldValue]

    struct Missing: Error { var id: String }

    /// The ids of the vectors in every file of `Vectors/FOLDER`.
    static func ids(inFolder folder: String) throws -> Set<String> {
        let dir = RepositoryPaths.root + "/Vectors/" + folder
        var ids: Set<String> = []
        for file in try FileManager.default.contentsOfDirectory(atPath: dir) where file.hasSuffix(".json") {
            let text = try String(contentsOfFile: dir + "/" + file, encoding: .utf8)
            guard case .array(let vectors)? = try FieldValue(jsonText: text)["vectors"] else { continue }
            for case .string(let id)? in vectors.map({ $0["id"] }) { ids.insert(id) }
        }
        return ids
    }

    static func vector(_ id: String, in file: String) throws -> VectorFile {
        let text = try String(contentsOfFile: RepositoryPaths.root + "/Vectors/" + file, encoding: .utf8)
        guard case .object(let root) = try FieldValue(jsonText: text), case .array(let vectors)? = root["vectors"]
        else { throw Missing(id: id) }
        for case .object(let v) in vectors where v["id"]?.string == id {
            guard case .object(let expect)? = v["expect"] else { throw Missing(id: id) }
            return VectorFile(id: id, expect: expect)
        }
        throw Missing(id: id)
    }
}
