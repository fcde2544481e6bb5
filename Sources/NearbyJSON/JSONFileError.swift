import NearbySystem

/// An input file that cannot be used: which file, where in it (a JSON path, or a line and
/// column for a syntax error other than a duplicate key; empty when the file could not be
/// read), what kind (`code`) and why. Readers build their whole value before anything uses
/// it, so nothing of a rejected file is applied.
public struct JSONFileError: Error, Hashable, Sendable, CustomStringConvertible {
    public var file: String
    public var location: String
    public var code: JSONInputFault
    public var reason: String

    public init(file: String, location: String, code: JSONInputFault, reason: String) {
        self.file = file
        self.location = location
        self.code = code
        self.reason = reason
    }

    /// `error`, found in `file`.
    public init(file: String, _ error: JSONInputError) {
        self.init(file: file, location: error.path, code: error.code, reason: error.reason)
    }

    public var description: String {
        location.isEmpty ? "\(file): \(reason)" : "\(file): \(location): \(reason)"
    }
}

/// Reading and parsing a JSON input file.
public enum JSONFile {
    /// Input files larger than this are refused (a scenario or registry is small; this keeps a
    /// wrong path to a huge file from exhausting memory).
    public static let maximumBytes = 256 << 20

    public static func load(_ path: String) throws(JSONFileError) -> JSONNode {
        let bytes = try read(path)
        do {
            return JSONNode(try JSONParser.parse(bytes))
        } catch {
            let place = "line \(error.line), column \(error.column)"
            guard let member = error.path else {
                throw JSONFileError(file: path, location: place, code: error.code, reason: error.reason)
            }
            throw JSONFileError(file: path, location: member, code: error.code, reason: "\(error.reason) (\(place))")
        }
    }

    public static func read(_ path: String) throws(JSONFileError) -> [UInt8] {
        let file: FileDescriptor
        do {
            file = try FileDescriptor.open(path, .readOnly, options: .closeOnExec)
        } catch {
            throw JSONFileError(file: path, location: "", code: .unreadable, reason: "cannot open: \(error)")
        }
        defer { try? file.close() }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n: Int
            do {
                n = try chunk.withUnsafeMutableBytes { try file.read(into: $0) }
            } catch {
                throw JSONFileError(file: path, location: "", code: .unreadable, reason: "read error: \(error)")
            }
            if n == 0 { return out }
            out.append(contentsOf: chunk[0..<n])
            if out.count > maximumBytes {
                throw JSONFileError(
                    file: path, location: "", code: .tooLarge, reason: "larger than \(maximumBytes >> 20) MiB")
            }
        }
    }
}
