import NearbyTestSupport
import Testing

@testable import NearbyCapture

/// `BufferedFile.peek` and `skip` against the file's bytes: peeks of every size up to the
/// peek limit, inside the 256 KiB chunk, straddling its end (moved to the chunk's start and
/// refilled behind) and as large as the chunk, each giving the next bytes of the file and,
/// skipped, moving the offset on.
@Suite struct BufferedFileTests {
    @Test(arguments: [[24, 70], [1, 0, 255, 4096], [24, 260_000, 70], [262_144, 262_145, 3]])
    func peekedBytesAreTheFilesNextBytes(sizes: [Int]) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let contents = (0..<700_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) }
        let file = try BufferedFile(path: dir.write(contents, to: "bytes"))
        var offset = 0, step = 0
        while offset < contents.count {
            let want = sizes[step % sizes.count]
            let lent = file.peek(want)
            file.skip(lent.count)
            let expected = contents[offset..<min(offset + want, contents.count)]
            #expect(lent.count == expected.count, "read \(step) of \(want) bytes at \(offset)")
            #expect(lent.elementsEqual(expected), "read \(step) of \(want) bytes at \(offset)")
            offset += lent.count
            #expect(file.offset == Int64(offset))
            step += 1
        }
        #expect(file.remaining == 0)
        #expect(file.peek(10).isEmpty)
    }
}
