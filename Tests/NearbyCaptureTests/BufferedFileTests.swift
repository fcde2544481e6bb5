import Foundation
@testable import NearbyCapture
import NearbyTestSupport
import Testing

/// `BufferedFile` reads through a chunk of its own (`chunkSize` bytes): what it hands out
/// must be the file's bytes in order whatever the read sizes, across chunk boundaries and
/// for reads larger than a chunk; its offset must count exactly what it handed out.
@Suite struct BufferedFileTests {
    /// Bytes of an irregular pattern, so that a run read from the wrong place shows.
    static func pattern(_ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761) >> 13) }
    }

    @Test func readsGiveTheFileInOrderWhateverTheirSizes() throws {
        let dir = TemporaryDirectory(); defer { dir.remove() }
        let size = 3 * BufferedFile.chunkSize + 12_345
        let bytes = Self.pattern(size)
        let path = dir.write(bytes, to: "data.bin")
        // Sizes that straddle chunk boundaries, one larger than two chunks, and ones past the end.
        let sizes = [1, 24, 70, BufferedFile.chunkSize - 95, 3, 2 * BufferedFile.chunkSize + 7, 100_000, 65_536]
        let file = try BufferedFile(path: path)
        #expect(file.size == Int64(size))
        var got: [UInt8] = []
        var buffer: [UInt8] = []
        for n in sizes {
            let before = file.offset
            let read = file.read(into: &buffer, count: n)
            #expect(read == min(n, size - Int(before)), "a read of \(n) at \(before)")
            #expect(file.offset == before + Int64(read))
            got += buffer[0..<read]
        }
        #expect(got == bytes)
        #expect(file.remaining == 0)
        #expect(file.read(into: &buffer, count: 10) == 0)
    }

    @Test func readsPlaceBytesAtTheOffsetAsked() throws {
        let dir = TemporaryDirectory(); defer { dir.remove() }
        let path = dir.write(Self.pattern(40), to: "data.bin")
        let file = try BufferedFile(path: path)
        var buffer: [UInt8] = [0xEE, 0xEE]
        #expect(file.read(into: &buffer, at: 2, count: 5) == 5)
        #expect(buffer == [0xEE, 0xEE] + Self.pattern(5))
    }

    @Test func linesSplitAtLFAndCRLFAcrossChunkBoundaries() throws {
        let dir = TemporaryDirectory(); defer { dir.remove() }
        // Lines of growing length, so that line ends fall everywhere relative to the chunk
        // edges; one line longer than a chunk; CR LF and LF ends; no end on the last line.
        var lines: [String] = []
        var text = ""
        for i in 0..<3_000 {
            let line = String(repeating: String(i % 10), count: i % 401)
            lines.append(line)
            text += line + (i % 3 == 0 ? "\r\n" : "\n")
        }
        let long = String(repeating: "x", count: BufferedFile.chunkSize + 17)
        lines += ["", long, "last"]
        text += "\n" + long + "\r\nlast"
        let path = dir.write(Array(text.utf8), to: "lines.txt")
        let file = try BufferedFile(path: path)
        var got: [String] = []
        var buffer: [UInt8] = []
        while file.readLine(into: &buffer) { got.append(String(decoding: buffer, as: UTF8.self)) }
        #expect(got.count == lines.count)
        #expect(got == lines)
        #expect(file.offset == Int64(text.utf8.count))
    }

    @Test func aDirectoryOrAMissingFileIsAClearError() throws {
        let dir = TemporaryDirectory(); defer { dir.remove() }
        #expect(throws: CaptureFileError.self) { try BufferedFile(path: dir.path) }
        #expect(throws: CaptureFileError.self) { try BufferedFile(path: dir.path + "/absent") }
    }
}
