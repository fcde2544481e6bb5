/// The container formats this package reads, recognised by their first bytes, never by
/// the file name (RECORDS-1; the Nordic captures in the field are classic pcap named `.pcapng`).
public enum CaptureFormat: String, Sendable, CaseIterable {
    /// Classic libpcap (magic a1b2c3d4 or a1b23c4d, either byte order: PCAP-1).
    case pcap
    /// pcapng (Section Header Block type 0a0d0d0a: PCAPNG-1).
    case pcapng
    /// btsnoop version 1 (`btsnoop\0`).
    case btsnoop
    /// Hex text: one H4 packet per line (see `HexTextFileReader`).
    case hexText = "hex-text"
    /// Records from a live controller as they arrive (`NearbyLive`); never a file's format.
    case live

    /// The format of a file that starts with `prefix` (at least its first 16 bytes when
    /// the file has them), or nil when it is none of the above.
    public static func detect(prefix: [UInt8]) -> CaptureFormat? {
        if prefix.count >= 8, prefix[0..<8].elementsEqual("btsnoop\0".utf8) { return .btsnoop }
        if prefix.count >= 4 {
            let m = Array(prefix[0..<4])
            let pcapMagics: [[UInt8]] = [
                [0xd4, 0xc3, 0xb2, 0xa1], [0xa1, 0xb2, 0xc3, 0xd4],  // microseconds
                [0x4d, 0x3c, 0xb2, 0xa1], [0xa1, 0xb2, 0x3c, 0x4d],  // nanoseconds
            ]
            if pcapMagics.contains(m) { return .pcap }
            if m == [0x0a, 0x0d, 0x0d, 0x0a] { return .pcapng }
        }
        if HexTextFileReader.looksLikeHexText(prefix) { return .hexText }
        return nil
    }
}
