#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A read-only C stdio stream with a large buffer: the streaming input under the native
/// readers (btsnoop, hex text). Memory use is the buffer, whatever the file size.
final class BufferedFile {
    private let file: UnsafeMutablePointer<FILE>
    let size: Int64
    private(set) var offset: Int64 = 0

    init(path: String) throws(CaptureFileError) {
        guard let f = fopen(path, "rb") else {
            throw CaptureFileError(path: path, reason: "cannot open: \(String(cString: strerror(errno)))")
        }
        var st = stat()
        guard fstat(fileno(f), &st) == 0 else {
            fclose(f)
            throw CaptureFileError(path: path, reason: "cannot stat: \(String(cString: strerror(errno)))")
        }
        if (st.st_mode & S_IFMT) == S_IFDIR {
            fclose(f)
            throw CaptureFileError(path: path, reason: "is a directory")
        }
        setvbuf(f, nil, _IOFBF, 1 << 20)
        self.file = f
        self.size = Int64(st.st_size)
    }

    deinit { fclose(file) }

    var remaining: Int64 { size - offset }

    /// Reads up to `count` bytes into `buffer[start...]`, growing it if needed; returns
    /// how many were read (fewer only at the end of the file).
    func read(into buffer: inout [UInt8], at start: Int = 0, count: Int) -> Int {
        if buffer.count < start + count { buffer += [UInt8](repeating: 0, count: start + count - buffer.count) }
        let n = buffer.withUnsafeMutableBytes { raw in
            fread(raw.baseAddress! + start, 1, count, file)
        }
        offset += Int64(n)
        return n
    }

    /// Reads one line (without its terminator) into `buffer`; false at the end of the file.
    func readLine(into buffer: inout [UInt8]) -> Bool {
        buffer.removeAll(keepingCapacity: true)
        var sawAny = false
        while true {
            let c = getc(file)
            if c == EOF { return sawAny }
            offset += 1
            sawAny = true
            if c == 0x0A { break }
            buffer.append(UInt8(truncatingIfNeeded: c))
        }
        if buffer.last == 0x0D { buffer.removeLast() }
        return true
    }
}

/// A capture file that cannot be read at all: missing, empty, not a capture, or with a
/// broken file header. (Damage inside the file is reported per record instead.)
public struct CaptureFileError: Error, Hashable, Sendable, CustomStringConvertible {
    public var path: String
    public var reason: String
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }
    public var description: String { "\(path): \(reason)" }
}
