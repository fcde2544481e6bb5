@testable import NearbyCapture
import NearbyTestSupport
import Testing

/// `BufferedFile.lend` against the file's bytes: reads of every size, inside the 256 KiB
/// chunk, straddling its end (assembled in the overflow buffer) and larger than it (read
/// past the chunk), each giving the next bytes of the file and moving the offset on.
@Suite struct BufferedFileTests {
    @Test(arguments: [[24, 70], [1, 0, 255, 4096], [24, 300_000, 70], [262_144, 262_145, 3]])
    func lentBytesAreTheFilesNextBytes(sizes: [Int]) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let contents = (0..<700_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) }
        let file = try BufferedFile(path: dir.write(contents, to: "bytes"))
        var offset = 0, step = 0
        while offset < contents.count {
            let want = sizes[step % sizes.count]
            let lent = file.lend(want)
            let expected = contents[offset..<min(offset + want, contents.count)]
            #expect(lent.count == expected.count, "read \(step) of \(want) bytes at \(offset)")
            #expect(lent.elementsEqual(expected), "read \(step) of \(want) bytes at \(offset)")
            offset += lent.count
            #expect(file.offset == Int64(offset))
            step += 1
        }
        #expect(file.remaining == 0)
        #expect(file.lend(10).isEmpty)
    }
}
