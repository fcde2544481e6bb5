import NearbyBytes

/// Reads hex text: one HCI packet in H4 framing (indicator byte first) per line (HEXTEXT-1
/// to HEXTEXT-5).
///
/// A line is `HEX`, or `LABEL<TAB>HEX[<TAB>anything]`: the packet is the first
/// tab-separated field made only of hex digit pairs (spaces, colons and dashes between
/// pairs are allowed), so a label such as `bz1` or `UidPacket1` is skipped. Blank lines and
/// lines starting with `#` are not records. A line with no hex field is a malformed record.
/// There are no timestamps. This is the format of `hcidump --raw` output pasted into
/// tests, as in the Estimote and BlueZ examples.
public final class HexTextFileReader: CaptureRecordReader, SteppingReader {
    public let format = CaptureFormat.hexText
    public let encapsulationDescription = "hex text, H4 packets"

    private let file: BufferedFile
    private var lineBuffer = [UInt8]()
    private var bytes = [UInt8]()
    private var core = ReaderCore()
    private var lineNumber = 0

    public init(path: String) throws(CaptureFileError) {
        file = try BufferedFile(path: path)
    }

    /// HEXTEXT-1: true when the first line of `prefix` that is neither blank nor a `#` comment has no
    /// NUL byte and a field of at least one whole hex byte and nothing but hex digits and
    /// separators.
    static func looksLikeHexText(_ prefix: [UInt8]) -> Bool {
        guard !prefix.isEmpty else { return false }
        for line in prefix.split(separator: 0x0A, omittingEmptySubsequences: true) {
            let trimmed = line.drop(while: { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D })
            if trimmed.isEmpty || trimmed.first == UInt8(ascii: "#") { continue }
            // Later lines may hold anything: a damaged line is one malformed record.
            if line.contains(0) { return false }
            for field in line.split(separator: 0x09, omittingEmptySubsequences: true) {
                let chars = field.filter { $0 != 0x0D }
                let digits = chars.filter { $0 != 0x20 && $0 != UInt8(ascii: ":") && $0 != UInt8(ascii: "-") }
                if digits.count >= 2, chars.allSatisfy(isHexOrSeparator) { return true }
            }
            return false
        }
        return false
    }

    private static func isHexOrSeparator(_ c: UInt8) -> Bool {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
            UInt8(ascii: "A")...UInt8(ascii: "F"), UInt8(ascii: " "), UInt8(ascii: ":"), UInt8(ascii: "-"):
            true
        default: false
        }
    }

    public func read(_ body: (borrowing RecordView) -> Bool) -> CaptureReadStep {
        readSteps(body)
    }

    /// Reads one record, or reports what failed.
    func step(_ body: (borrowing RecordView) -> Void) -> CaptureReadStep {
        while true {
            let lineStart = file.offset
            guard file.readLine(into: &lineBuffer) else { return .end }
            lineNumber += 1
            let trimmed = lineBuffer.drop(while: { $0 == 0x20 || $0 == 0x09 })
            if trimmed.isEmpty || trimmed.first == UInt8(ascii: "#") { continue }  // HEXTEXT-2
            // HEXTEXT-3: the first tab-separated field of whole hex octets is the packet.
            for field in lineBuffer.split(separator: 0x09, omittingEmptySubsequences: true) {
                let text = String(decoding: field, as: UTF8.self)
                if let decoded = Hex.decode(text.trimmingSpaces()), !decoded.isEmpty {
                    bytes.removeAll(keepingCapacity: true)
                    bytes.append(contentsOf: decoded)
                    bytes.withUnsafeBytes { raw in
                        body(
                            RecordView(
                                RecordMetadata(
                                    index: core.number(), timestampMicros: nil, encapsulation: .hexText,
                                    originalLength: raw.count, line: lineNumber),
                                bytes: Span(_unsafeBytes: raw)))
                    }
                    return .record
                }
            }
            // HEXTEXT-5, DAMAGE-15: a line without one is one malformed record.
            return core.report(
                ContainerFault(
                    at: lineStart, line: lineNumber,
                    DecodeError(.hexText, .invalidValue, at: 0, "line \(lineNumber) has no field of hex digit pairs")))
        }
    }
}

extension String {
    func trimmingSpaces() -> Substring {
        let s = self.drop(while: { $0 == " " })
        var end = s.endIndex
        while end > s.startIndex, s[s.index(before: end)] == " " { end = s.index(before: end) }
        return s[s.startIndex..<end]
    }
}
