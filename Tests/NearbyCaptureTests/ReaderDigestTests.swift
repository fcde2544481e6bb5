import Foundation
import NearbyBytes
import NearbyCapture
import NearbyTestSupport
import Testing

/// What the container readers deliver, held still while they are rewritten: for every file in
/// Captures/ (the damaged, gap and systematic ones too), a digest of every step, a record's
/// metadata and bytes or a malformed record's index, offsets, fault and skipped bytes, and of
/// the refusal of a file that cannot be read. Read one record at a time (the closure returns
/// false) and in runs (it returns true) the steps must be the same, and their digest the one in
/// Tests/Golden/reader-digests.txt. The golden file was written from the readers as they
/// were (`NEARBY_WRITE_GOLDEN=1 swift test --filter ReaderDigestTests` rewrites it, for a
/// change that means to change what is read). The field captures are not digested here: no
/// trace of them is kept in the repository.
struct ReaderDigestTests {
    static let golden = RepositoryPaths.root + "/Tests/Golden/reader-digests.txt"

    /// Every capture file under Captures/, by path from it.
    static var files: [String] {
        let root = RepositoryPaths.root + "/Captures"
        let all = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? []
        return all.filter { p in [".pcap", ".pcapng", ".btsnoop", ".txt", ".log"].contains { p.hasSuffix($0) } }
            .sorted()
    }

    /// One line per step, in order, or the file's refusal.
    static func steps(_ path: String, inRuns: Bool) -> [String] {
        let reader: any CaptureRecordReader
        do {
            reader = try CaptureFile.open(path)
        } catch {
            return ["refused \(error.code) \(error.reason)"]
        }
        var lines: [String] = []
        func record(_ r: borrowing RecordView) {
            let m = r.metadata
            var hex = ""
            for i in r.bytes.indices { hex += String(r.bytes[i], radix: 16) + "," }
            lines.append(
                "R \(m.index) t=\(m.timestampMicros.map(String.init) ?? "-") \(m.encapsulation) len=\(m.originalLength) "
                    + "off=\(m.fileOffset.map(String.init) ?? "-") line=\(m.line.map(String.init) ?? "-") \(hex)")
        }
        while true {
            let step = reader.read {
                record($0)
                return inRuns
            }
            switch step {
            case .record: continue
            case .malformed(let f):
                lines.append(
                    "M \(f.index) off=\(f.fileOffset.map(String.init) ?? "-") line=\(f.line.map(String.init) ?? "-") "
                        + "\(f.error.key)@\(f.error.offset) \(f.error.reason) \(f.skipped?.description ?? "-")")
            case .end: return lines
            }
        }
    }

    /// FNV-1a, 64 bits, of the lines joined by newlines, in hex.
    static func digest(_ lines: [String]) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in lines.joined(separator: "\n").utf8 {
            h ^= UInt64(byte)
            h = h &* 0x0000_0100_0000_01b3
        }
        return String(h, radix: 16)
    }

    @Test func everyCaptureReadsAsItDidStepByStepAndInRuns() throws {
        let files = Self.files
        #expect(files.count >= 60)
        var table: [String] = []
        for file in files {
            let path = RepositoryPaths.root + "/Captures/" + file
            let one = Self.steps(path, inRuns: false), runs = Self.steps(path, inRuns: true)
            #expect(one == runs, "\(file): one at a time and in runs differ")
            table.append("\(file) \(one.count) \(Self.digest(one))")
        }
        let text = table.joined(separator: "\n") + "\n"
        if ProcessInfo.processInfo.environment["NEARBY_WRITE_GOLDEN"] == "1" {
            try text.write(toFile: Self.golden, atomically: true, encoding: .utf8)
            return
        }
        let committed = try String(contentsOfFile: Self.golden, encoding: .utf8)
        let want = Dictionary(
            uniqueKeysWithValues: committed.split(separator: "\n").map { line in
                (String(line.split(separator: " ")[0]), String(line))
            })
        for line in table {
            let file = String(line.split(separator: " ")[0])
            #expect(want[file] == line, "\(file): read \(line), the golden file says \(want[file] ?? "nothing")")
        }
        #expect(want.count == table.count, "the golden file lists \(want.count) files, Captures/ holds \(table.count)")
    }
}
