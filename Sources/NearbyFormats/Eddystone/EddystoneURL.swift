import NearbyBytes

/// Eddystone-URL (eddystone-url/README.md; formats.md §1.4): `10 | Tx_Power(int8, dBm at
/// 0 m) | URL_Scheme(1) | Encoded_URL(1–17)`.
///
/// Scheme 0 `http://www.`, 1 `https://www.`, 2 `http://`, 3 `https://`; others reserved.
/// In the encoded URL, 0x00–0x0D expand to `.com/ .org/ .edu/ .net/ .info/ .biz/ .gov/ .com
/// .org .edu .net .info .biz .gov`, 0x21–0x7E stand for themselves, and 0x0E–0x20 and
/// 0x7F–0xFF are reserved. Reserved bytes are reported (`reservedBytes`) and never put in
/// the text: `url` is nil when the scheme or any byte is reserved.
public struct EddystoneURL: EddystoneServiceData, Hashable, Sendable {
    public var txPowerDBm: Int8
    public var scheme: UInt8
    /// The encoded URL bytes after the scheme byte.
    public var encoded: [UInt8]

    public static let schemes = ["http://www.", "https://www.", "http://", "https://"]
    public static let expansions = [
        ".com/", ".org/", ".edu/", ".net/", ".info/", ".biz/", ".gov/",
        ".com", ".org", ".edu", ".net", ".info", ".biz", ".gov",
    ]

    public init(txPowerDBm: Int8, scheme: UInt8, encoded: [UInt8]) {
        self.txPowerDBm = txPowerDBm
        self.scheme = scheme
        self.encoded = encoded
    }

    /// Reads the service data at the cursor to its end, frame type byte first.
    public init(_ c: inout ByteCursor) throws(DecodeError) {
        c.layer = .eddystone
        try c.skip(1, "URL frame type")
        txPowerDBm = try c.readInt8("URL Tx_Power")
        scheme = try c.readUInt8("URL scheme")
        encoded = c.readRestArray()
    }

    /// A reserved byte of the encoding: its offset in `encoded` and its value.
    public struct ReservedByte: Hashable, Sendable {
        public var offset: Int
        public var value: UInt8
    }

    /// Offsets and values of reserved bytes in the encoding.
    public var reservedBytes: [ReservedByte] {
        encoded.enumerated().compactMap { i, b in Self.isReserved(b) ? ReservedByte(offset: i, value: b) : nil }
    }

    public var hasReservedScheme: Bool { Int(scheme) >= Self.schemes.count }

    static func isReserved(_ b: UInt8) -> Bool { (0x0E...0x20).contains(b) || b >= 0x7F }

    /// The expanded URL; nil when the scheme or a byte of the encoding is reserved.
    public var url: String? {
        guard !hasReservedScheme else { return nil }
        var text = Self.schemes[Int(scheme)]
        for b in encoded {
            if Int(b) < Self.expansions.count {
                text += Self.expansions[Int(b)]
            } else if Self.isReserved(b) {
                return nil
            } else {
                text.unicodeScalars.append(Unicode.Scalar(b))
            }
        }
        return text
    }
}
