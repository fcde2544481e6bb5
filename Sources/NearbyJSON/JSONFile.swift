import NearbySystem

/// Reading and parsing a JSON input file; its errors name the file (`JSONInputError.file`).
public enum JSONFile {
    /// Input files larger than this are refused (a scenario or registry is small; this keeps a
    /// wrong path to a huge file from exhausting memory).
    public static let maximumBytes = 256 << 20

    public static func load(_ path: String) throws(JSONInputError) -> JSONNode {
        let bytes = try read(path)
        do {
            return JSONNode(try JSONParser.parse(bytes))
        } catch {
            throw error.in(file: path)
        }
    }

    public static func read(_ path: String) throws(JSONInputError) -> [UInt8] {
        let file: FileDescriptor
        do {
            file = try FileDescriptor.open(path, .readOnly, options: .closeOnExec)
        } catch {
            throw JSONInputError(file: path, code: .unreadable, reason: "cannot open: \(error)")
        }
        defer { try? file.close() }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n: Int
            do {
                n = try chunk.withUnsafeMutableBytes { try file.read(into: $0) }
            } catch {
                throw JSONInputError(file: path, code: .unreadable, reason: "read error: \(error)")
            }
            if n == 0 { return out }
            out.append(contentsOf: chunk[0..<n])
            if out.count > maximumBytes {
                throw JSONInputError(file: path, code: .tooLarge, reason: "larger than \(maximumBytes >> 20) MiB")
            }
        }
    }
}
