import NearbyBytes

/// Eddystone-URL (docs/spec/eddystone.md, EDDYSTONE-URL-): `10 | Tx_Power(int8, dBm at
/// 0 m) | URL_Scheme(1) | Encoded_URL(1–17)`.
///
/// Scheme 0 `http://www.`, 1 `https://www.`, 2 `http://`, 3 `https://`; others reserved.
/// In the encoded URL, 0x00–0x0D expand to `.com/ .org/ .edu/ .net/ .info/ .biz/ .gov/ .com
/// .org .edu .net .info .biz .gov`, 0x21–0x7E stand for themselves, and 0x0E–0x20 and
/// 0x7F–0xFF are reserved. Reserved bytes are reported (`reservedBytes`) and never put in
/// the text: `url` is nil when the scheme or any byte is reserved (EDDYSTONE-URL-6,
/// EDDYSTONE-URL-7).
public struct EddystoneURL: EddystoneCursorFrame, Hashable, Sendable {
    public init(serviceData: ArraySlice<UInt8>) throws(DecodeError) { self = try Self.decoding(serviceData) }

    /// Calibrated Tx power at 0 m, dBm, signed; offset 1, as sent (EDDYSTONE-URL-1).
    public var txPowerDBm: Int8
    /// The scheme byte, offset 2 (EDDYSTONE-URL-2): 0–3 index `schemes`; above 3 is reserved
    /// (EDDYSTONE-URL-7).
    public var scheme: UInt8
    /// The encoded URL bytes after the scheme byte, as an array of their own (a copy of
    /// `encodedBytes`).
    public var encoded: [UInt8] {
        get { Array(encodedBytes) }
        set { encodedBytes = InlineBytes(newValue) }
    }
    /// `encoded`, held inline up to 32 bytes (every legacy advertisement's URL): decoding a
    /// URL frame allocates nothing. Indices start at 0.
    public var encodedBytes: InlineBytes

    /// The scheme prefixes by scheme byte (0–3).
    public static let schemes = (0...3).map { schemeText(UInt8($0)).description }
    /// The expansions of the codes 0x00–0x0D, in order.
    public static let expansions = (0...0x0D).map { expansionText(UInt8($0))!.description }

    /// A URL frame of these fields; `encoded` is the encoded URL after the scheme byte, as
    /// sent (reserved bytes and a reserved scheme included).
    public init(txPowerDBm: Int8, scheme: UInt8, encoded: [UInt8]) {
        self.txPowerDBm = txPowerDBm
        self.scheme = scheme
        encodedBytes = InlineBytes(encoded)
    }

    /// Reads the service data at the cursor to its end, frame type byte first.
    @inline(__always)
    package init(_ c: inout ByteCursor) throws(DecodeError) {
        c.layer = .eddystone
        try c.skip(1, "URL frame type")
        // EDDYSTONE-URL-1, EDDYSTONE-URL-2; EDDYSTONE-URL-10: `truncated` at s + 1, s + 2.
        txPowerDBm = try c.readInt8("URL Tx_Power")
        scheme = try c.readUInt8("URL scheme")
        // EDDYSTONE-URL-3: the rest of the structure, of any length (EDDYSTONE-URL-9,
        // EDDYSTONE-URL-12).
        encodedBytes = c.readRestInlineBytes(startIndex: 0)
    }

    /// A reserved byte of the encoding: its offset in `encoded` and its value.
    public struct ReservedByte: Hashable, Sendable {
        /// Offset in `encoded`: 0 for the first byte after the scheme (offset 3 of the
        /// service data).
        public var offset: Int
        /// The byte: 0x0E–0x20 or 0x7F–0xFF.
        public var value: UInt8
    }

    /// Offsets and values of reserved bytes in the encoding.
    public var reservedBytes: [ReservedByte] {
        encodedBytes.enumerated().compactMap { i, b in Self.isReserved(b) ? ReservedByte(offset: i, value: b) : nil }
    }

    /// True when the scheme byte is above 3, a reserved scheme: `url` is then nil
    /// (EDDYSTONE-URL-7).
    public var hasReservedScheme: Bool { scheme > 3 }

    /// True for the bytes the encoding reserves: 0x0E–0x20 and 0x7F–0xFF (EDDYSTONE-URL-6).
    public static func isReserved(_ b: UInt8) -> Bool { (0x0E...0x20).contains(b) || b >= 0x7F }

    /// The expanded URL; nil when the scheme or a byte of the encoding is reserved.
    public var url: String? {
        withExpandedURL { String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `body` with the UTF-8 bytes of `url` (valid only during the call), building
    /// no `String`; nil when the scheme or a byte of the encoding is reserved (EDDYSTONE-URL-8).
    /// An encoding longer than the frame allows (17 bytes) is expanded all the same
    /// (EDDYSTONE-URL-12).
    @inlinable
    package func withExpandedURL<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R? {
        guard !hasReservedScheme else { return nil }
        // The longest scheme is 12 bytes, the longest expansion 6 (`.info/`).
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 12 + encodedBytes.count * 6) { buffer -> R? in
            var n = 0
            func append(_ text: StaticString) {
                UnsafeMutableRawPointer(buffer.baseAddress! + n).copyMemory(
                    from: text.utf8Start, byteCount: text.utf8CodeUnitCount)
                n += text.utf8CodeUnitCount
            }
            append(Self.schemeText(scheme))
            for b in encodedBytes {
                // EDDYSTONE-URL-4, EDDYSTONE-URL-6, EDDYSTONE-URL-5, in that order.
                if let expansion = Self.expansionText(b) {
                    append(expansion)
                } else if Self.isReserved(b) {
                    return nil
                } else {
                    buffer[n] = b
                    n += 1
                }
            }
            return body(UnsafeBufferPointer(rebasing: buffer[..<n]))
        }
    }

    /// `schemes[scheme]` as a literal (EDDYSTONE-URL-2); `scheme` must not be reserved.
    @usableFromInline
    static func schemeText(_ scheme: UInt8) -> StaticString {
        switch scheme {
        case 0: "http://www."
        case 1: "https://www."
        case 2: "http://"
        default: "https://"
        }
    }

    /// `expansions[b]` as a literal (EDDYSTONE-URL-4); nil for bytes that are not expansion
    /// codes.
    @usableFromInline
    static func expansionText(_ b: UInt8) -> StaticString? {
        switch b {
        case 0x00: ".com/"
        case 0x01: ".org/"
        case 0x02: ".edu/"
        case 0x03: ".net/"
        case 0x04: ".info/"
        case 0x05: ".biz/"
        case 0x06: ".gov/"
        case 0x07: ".com"
        case 0x08: ".org"
        case 0x09: ".edu"
        case 0x0A: ".net"
        case 0x0B: ".info"
        case 0x0C: ".biz"
        case 0x0D: ".gov"
        default: nil
        }
    }
}
