import NearbyDecode
import NearbyJSON

/// The vectors found under some paths, and the ones that could not be read. A bad vector is
/// an error of that vector (file, JSON path, reason); the others still load.
public struct VectorSet: Sendable {
    /// A vector (or a whole file) that could not be read.
    public struct LoadError: Error, Sendable, CustomStringConvertible {
        /// The vector's id when it could be read, else nil.
        public var id: String?
        public var file: String
        public var location: String
        public var reason: String
        public var description: String {
            (id.map { "\($0): " } ?? "") + (location.isEmpty ? "\(file): \(reason)" : "\(file): \(location): \(reason)")
        }

        /// The `error` result a run reports for the vector (or file) that did not load: kind
        /// `load`, id `(file)` when the vector's own could not be read.
        public var result: VectorResult {
            VectorResult(
                id: id ?? "(file)", kind: "load", file: file, status: .error,
                message: location.isEmpty ? reason : "\(location): \(reason)")
        }
    }

    public private(set) var vectors: [Vector] = []
    public private(set) var errors: [LoadError] = []

    /// Loads every `*.json` file under `paths` (directories walked in sorted order; folders
    /// named `schema` are skipped). Vectors come out sorted by id.
    public static func load(_ paths: [String]) -> VectorSet {
        var set = VectorSet()
        var seen: [String: String] = [:]
        for file in paths.flatMap(Self.files) {
            let root: JSONNode
            do {
                root = try JSONFile.load(file)
            } catch {
                set.errors.append(LoadError(id: nil, file: file, location: error.location, reason: error.detail))
                continue
            }
            let items: [JSONNode]
            do {
                let o = try root.object(allowed: ["vectorFile", "description", "vectors"])
                _ = try o.required("vectorFile").integer(in: 1...1)
                if let d = o.optional("description") { _ = try d.string() }
                items = try o.required("vectors").array()
            } catch {
                set.errors.append(LoadError(id: nil, file: file, location: error.location, reason: error.reason))
                continue
            }
            let directory = file.lastIndex(of: "/").map { String(file[..<$0]) } ?? "."
            for item in items {
                var id: String?
                if case .object(let fields) = item.value, case .string(let s)? = fields["id"] { id = s }
                do {
                    let v = try Vector(json: item, file: file, directory: directory)
                    if let other = seen[v.id] {
                        set.errors.append(
                            LoadError(
                                id: v.id, file: file, location: item.path + ".id",
                                reason: "the id is already used in \(other)"))
                        continue
                    }
                    seen[v.id] = file
                    set.vectors.append(v)
                } catch {
                    set.errors.append(LoadError(id: id, file: file, location: error.location, reason: error.reason))
                }
            }
        }
        set.vectors.sort { $0.id.utf8.lexicographicallyPrecedes($1.id.utf8) }
        return set
    }

    /// Keeps the vectors whose id contains `filter` (when given) and that fall in shard
    /// `k` of `n` (1-based: the i-th vector in id order goes to shard i mod n + 1).
    public func selecting(filter: String?, shard: (k: Int, n: Int)?) -> VectorSet {
        var out = self
        out.vectors = vectors.enumerated().filter { i, v in
            (filter.map { v.id.contains($0) } ?? true) && (shard.map { i % $0.n == $0.k - 1 } ?? true)
        }.map(\.element)
        if let filter { out.errors = errors.filter { $0.id?.contains(filter) ?? true } }
        return out
    }

    /// A named file as it is; a directory as the `*.json` files below it, outside `schema/`,
    /// but the reference's list of known failures (`KnownFailures`).
    static func files(_ path: String) -> [String] {
        guard FileTree.isDirectory(path) else { return [path] }  // unreadable files are reported by JSONFile
        return FileTree.files(below: path, skipping: ["schema"]).filter {
            $0.hasSuffix(".json") && !$0.hasSuffix("/" + KnownFailures.fileName)
        }
    }
}
