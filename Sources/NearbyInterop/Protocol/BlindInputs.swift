import NearbyBytes
import NearbyDecode
import NearbyJSON
import NearbySystem

/// What keeps a `validate` run blind (docs/spec/interop.md): each request carries an opaque
/// id of this run instead of the vector's (`r7f3a…-12`), capture and sound files are sent as
/// copies under neutral names in a folder of their own, and the implementation starts in an
/// empty working directory. An implementation cannot answer from `Vectors/` by id, by path
/// or by looking around; only generated vectors keep it from answering by content.
struct BlindInputs {
    /// Random per run, so ids differ from run to run.
    let nonce: String
    private(set) var sent = 0
    /// The implementation's working directory: empty when it starts.
    let workingDirectory: ScratchFolder
    /// Where the copies of inputs go, one at a time.
    let inputs: ScratchFolder

    init() throws(ScratchFolder.Failure) {
        nonce = "r" + Hex.encode((0..<6).map { _ in UInt8.random(in: 0...255) })
        workingDirectory = try ScratchFolder(purpose: "implementation")
        inputs = try ScratchFolder(purpose: "inputs")
    }

    /// The id of the next request.
    mutating func nextID() -> String {
        sent += 1
        return "\(nonce)-\(sent)"
    }

    /// Copies `path` to `input-N.EXT` (the original's extension, which readers may go by).
    func copy(_ path: String) throws(InteropRequest.Failure) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let ext =
            name.split(separator: ".", omittingEmptySubsequences: false).count > 1
            ? "." + (name.split(separator: ".").last.map(String.init) ?? "") : ""
        let copy = inputs.path + "/input-\(sent)" + ext
        let bytes: [UInt8]
        do {
            bytes = try JSONFile.read(path)
        } catch {
            throw InteropRequest.Failure(reason: "cannot read \(path): \(error.reason)")
        }
        do {
            try OutputFile.write(bytes, to: copy)
        } catch {
            throw InteropRequest.Failure(reason: "cannot copy \(path) for the implementation: \(error)")
        }
        return copy
    }

    /// Removes the copies sent so far.
    func clearInputs() {
        for name in FileTree.entries(of: inputs.path) ?? [] where name != "." && name != ".." {
            FileSystem.removeTree(inputs.path + "/" + name)
        }
    }

    func remove() {
        workingDirectory.remove()
        inputs.remove()
    }
}
