import Foundation
import NearbyCapture
import NearbyDecode
import NearbyFuzzTargets
import NearbyTestSupport
import Testing

/// Every capture in `Captures/`, damaged the ways field files are: cut at many byte
/// positions, with seeded bit flips, and with the length fields of its first records set to
/// 0, 1, their maximum and one past the end. Each variant must give a clean error (the file
/// cannot be read at all) or a clean decode: no crash or hang, and the invariants of
/// `CaptureDecodeCheck` (the ones the capture fuzz targets check): every fault located (a
/// record number within the records read), read = decoded + ignored + malformed.
@Suite struct MalformedCaptureBatteryTests {
    static let captures = RepositoryPaths.wholeCaptures(suffixes: [".pcap", ".pcapng", ".btsnoop", ".txt", ".log"])

    /// What one damaged variant gave.
    enum Verdict: Equatable {
        case unreadable
        case decoded(records: Int)
    }

    /// Decodes `bytes` as a file and checks the invariants; the label names the variant in
    /// failures. (Plain checks, with an issue recorded only on failure: thousands of
    /// variants run, and most faults are counted many times.)
    static func check(_ bytes: [UInt8], _ label: String, in dir: TemporaryDirectory, name: String) -> Verdict {
        let result = CaptureDecodeCheck.run(path: dir.write(bytes, to: name))
        for violation in result.violations { Issue.record("\(label): \(violation)") }
        return result.accounting.map { .decoded(records: $0.recordsRead) } ?? .unreadable
    }

    /// Cut positions: every byte of a file up to 1 KiB (the fixtures: one per container and
    /// link layer); for a larger one 48 positions in its first 512 bytes (headers and first
    /// records) and 8 spread evenly over the rest (each cut decodes everything before it).
    static func cuts(_ size: Int) -> [Int] {
        if size <= 1_024 { return Array(0..<size) }
        return (0..<48).map { $0 * 512 / 48 } + (0..<8).map { 512 + ($0 * (size - 512)) / 8 }
    }

    /// Bit-flip variants: 48 for a small file, 4 for a large one (each decodes the whole file).
    static func flipVariants(_ size: Int) -> Int { size <= 8_192 ? 48 : 4 }

    @Test(arguments: captures)
    func truncatedAnywhereDecodesCleanly(_ capture: String) throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: RepositoryPaths.root + "/Captures/" + capture)))
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let name = "cut." + (capture.split(separator: ".").last.map(String.init) ?? "bin")
        var readable = 0
        for cut in Self.cuts(bytes.count) {
            if case .decoded = Self.check(Array(bytes[..<cut]), "\(capture) cut at \(cut)", in: dir, name: name) {
                readable += 1
            }
        }
        #expect(readable > 0 || Self.recordCount(capture) == 0, "some cuts keep the header, so decode")
    }

    @Test(arguments: captures)
    func seededBitFlipsDecodeCleanly(_ capture: String) throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: RepositoryPaths.root + "/Captures/" + capture)))
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let name = "flip." + (capture.split(separator: ".").last.map(String.init) ?? "bin")
        var state = UInt64(
            truncatingIfNeeded: capture.utf8.reduce(1469598103934665603) { ($0 ^ UInt64($1)) &* 1099511628211 })
        func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state >> 17
        }
        for variant in 0..<Self.flipVariants(bytes.count) {
            var b = bytes
            let flips = 1 + Int(next() % 8)
            var which: [Int] = []
            for _ in 0..<flips {
                let bit = Int(next() % UInt64(b.count * 8))
                b[bit / 8] ^= UInt8(1 << (bit % 8))
                which.append(bit)
            }
            _ = Self.check(b, "\(capture) variant \(variant) (bits \(which))", in: dir, name: name)
        }
    }

    /// Records in the undamaged capture.
    static func recordCount(_ capture: String) -> Int {
        (try? CaptureDecoder.decode(
            path: RepositoryPaths.root + "/Captures/" + capture, onAdvertisement: { _ in }, onIssue: { _ in }
        ).recordsRead) ?? 0
    }

    /// A length field: where it is, how wide, its byte order, and how many bytes follow it in
    /// its record (for "one past the end").
    struct LengthField {
        var offset: Int
        var width: Int
        var bigEndian: Bool
        var remaining: Int
        var what: String
    }

    /// The container length fields of the first `n` records, and every byte of their first
    /// 48 payload bytes (24 in a large file) as a possible one-byte length (HCI parameter lengths, report data
    /// lengths, AD lengths, LL PDU lengths all are one byte).
    static func lengthFields(_ b: [UInt8], records n: Int) -> [LengthField] {
        var out: [LengthField] = []
        func payloadBytes(_ start: Int, _ count: Int, _ record: Int) {
            for i in 0..<min(count, b.count <= 8_192 ? 48 : 24) where start + i < b.count {
                out.append(
                    LengthField(
                        offset: start + i, width: 1, bigEndian: true, remaining: count - i - 1,
                        what: "record \(record) payload byte \(i)"))
            }
        }
        func u32(_ o: Int, _ big: Bool) -> Int {
            guard o + 4 <= b.count else { return 0 }
            let v =
                big
                ? (UInt32(b[o]) << 24 | UInt32(b[o + 1]) << 16 | UInt32(b[o + 2]) << 8 | UInt32(b[o + 3]))
                : (UInt32(b[o + 3]) << 24 | UInt32(b[o + 2]) << 16 | UInt32(b[o + 1]) << 8 | UInt32(b[o]))
            return Int(v)
        }
        guard b.count >= 16 else { return out }
        if b.starts(with: Array("btsnoop\0".utf8)) {
            var o = 16
            for r in 1...n where o + 24 <= b.count {
                let included = u32(o + 4, true)
                out.append(
                    LengthField(
                        offset: o, width: 4, bigEndian: true, remaining: b.count - o - 24,
                        what: "record \(r) original length"))
                out.append(
                    LengthField(
                        offset: o + 4, width: 4, bigEndian: true, remaining: b.count - o - 24,
                        what: "record \(r) included length"))
                payloadBytes(o + 24, included, r)
                o += 24 + included
            }
        } else if [[0xD4, 0xC3, 0xB2, 0xA1], [0xA1, 0xB2, 0xC3, 0xD4]].contains(Array(b[0..<4])) {
            let big = b[0] == 0xA1
            var o = 24
            for r in 1...n where o + 16 <= b.count {
                let included = u32(o + 8, big)
                out.append(
                    LengthField(
                        offset: o + 8, width: 4, bigEndian: big, remaining: b.count - o - 16,
                        what: "record \(r) incl_len"))
                out.append(
                    LengthField(
                        offset: o + 12, width: 4, bigEndian: big, remaining: b.count - o - 16,
                        what: "record \(r) orig_len"))
                payloadBytes(o + 16, included, r)
                o += 16 + included
            }
        } else if b.starts(with: [0x0A, 0x0D, 0x0D, 0x0A]) {
            let big = b[8] == 0x1A
            var o = 0, r = 0
            while o + 12 <= b.count && r < n + 2 {
                let type = u32(o, big), total = u32(o + 4, big)
                out.append(
                    LengthField(
                        offset: o + 4, width: 4, bigEndian: big, remaining: b.count - o - 8,
                        what: "block at \(o) total length"))
                if type == 6 && o + 28 <= b.count {
                    r += 1
                    let captured = u32(o + 20, big)
                    out.append(
                        LengthField(
                            offset: o + 20, width: 4, bigEndian: big, remaining: total - 28,
                            what: "EPB \(r) captured length"))
                    payloadBytes(o + 28, captured, r)
                }
                guard total >= 12 else { break }
                o += total
            }
        }
        return out
    }

    @Test(arguments: captures.filter { !$0.hasSuffix(".txt") && !$0.hasSuffix(".log") })
    func lengthFieldsOfTheFirstRecordsAtTheirLimitsDecodeCleanly(_ capture: String) throws {
        // The first 4 KiB hold the records whose lengths change; the rest would only be
        // decoded again for every variant.
        let bytes = Array(
            try [UInt8](Data(contentsOf: URL(fileURLWithPath: RepositoryPaths.root + "/Captures/" + capture))).prefix(
                4_096))
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let name = "len." + (capture.split(separator: ".").last.map(String.init) ?? "bin")
        let fields = Self.lengthFields(bytes, records: bytes.count <= 8_192 ? 3 : 2)
        #expect(
            fields.count >= (Self.recordCount(capture) > 0 ? 2 : 0),
            "\(capture): the first records' length fields are found")
        for f in fields {
            let maxValue = f.width == 1 ? 0xFF : 0xFFFF_FFFF
            for (value, label) in [
                (0, "0"), (1, "1"), (maxValue, "max"), (min(f.remaining + 1, maxValue), "one past the end"),
            ] {
                var b = bytes
                for i in 0..<f.width {
                    let shift = f.bigEndian ? (f.width - 1 - i) * 8 : i * 8
                    b[f.offset + i] = UInt8(truncatingIfNeeded: value >> shift)
                }
                _ = Self.check(b, "\(capture) \(f.what) = \(label)", in: dir, name: name)
            }
        }
    }
}
