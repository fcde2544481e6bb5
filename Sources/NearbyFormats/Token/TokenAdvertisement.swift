import NearbyBytes

/// BLE token advertisement v1 (docs/spec/ble-token.md, TOKEN-1 to TOKEN-18): the project's open format for the token
/// a publishing device broadcasts. Service Data (AD type 0x16) on UUID 0xFEF3, then
///
///     Header(1) = 0xF7 | Version(1) = major<<4 | flags | Length(1) = L | Token(L) | Tx_Power(int8)
///
/// `0xF7` has 0b111 in the top three bits, the version field of a Nearby Connections
/// advertisement on the same UUID, whose parsers accept only versions 1 and 2; a v1 token can
/// therefore never be read as a Connections header, nor the reverse. `L` is 6 (the
/// Copresence default) or 8…16 bytes. Tx_Power is the calibrated power at 0 m in dBm, as in
/// Eddystone, −100…+20.
public struct TokenAdvertisement: Hashable, Sendable {
    /// The header byte that marks a token advertisement (TOKEN-2).
    public static let header: UInt8 = 0xF7
    /// The major version this decoder reads (TOKEN-3; others are shown, TOKEN-10).
    public static let majorVersion: UInt8 = 1
    /// Allowed token lengths, bytes (TOKEN-5; any other is refused, TOKEN-13).
    public static let allowedLengths: Set<Int> = [6, 8, 9, 10, 11, 12, 13, 14, 15, 16]
    /// `allowedLengths` as bits (bit L set when L is allowed): the decoder's test, which
    /// hashes nothing.
    static let allowedLengthBits: UInt32 = allowedLengths.reduce(0) { $0 | 1 << $1 }

    /// The opaque token, 6 or 8…16 bytes, held inline (no allocation per advertisement).
    public var token: ShortBytes
    /// Calibrated transmit power at 0 m, dBm.
    public var txPowerDBm: Int8
    /// The low nibble of the version byte; reserved, sent as 0, reported and otherwise ignored (TOKEN-4).
    public var flags: UInt8

    /// A token advertisement of `token` (6 or 8…16 bytes to be decodable; at most
    /// `ShortBytes.capacity`, 24, held).
    public init(token: some Collection<UInt8>, txPowerDBm: Int8, flags: UInt8 = 0) {
        self.token = ShortBytes(token)
        self.txPowerDBm = txPowerDBm
        self.flags = flags
    }

    /// What the bytes after UUID 0xFEF3 are.
    public enum Content: Hashable, Sendable {
        /// A v1 token advertisement.
        case v1(TokenAdvertisement)
        /// The token header with a major version this decoder does not know: version and the
        /// bytes after the version byte, kept for display.
        case unknownVersion(UInt8, [UInt8])
    }

    /// Decodes the service data after the UUID. Returns nil when the first byte is not the
    /// token header (for example a Nearby Connections advertisement); throws when it is
    /// but the rest does not follow v1.
    public static func decode(serviceData: ArraySlice<UInt8>) throws(DecodeError) -> Content? {
        var c = ByteCursor(serviceData, layer: .token)
        return try decode(&c)
    }

    /// The same, reading the service data at the cursor to its end (the cursor is left
    /// where it was when this returns nil).
    @inline(__always)
    package static func decode(_ c: inout ByteCursor) throws(DecodeError) -> Content? {
        guard c.peekUInt8() == header else { return nil }  // TOKEN-2
        c.layer = .token
        try c.skip(1, "token header")
        let versionByte = try c.readUInt8("token version")  // TOKEN-11
        let major = versionByte >> 4
        guard major == majorVersion else {
            return .unknownVersion(major, c.readRestArray())  // TOKEN-10
        }
        let lengthOffset = c.readerIndex
        let length = Int(try c.readUInt8("token length"))  // TOKEN-12
        guard allowedLengthBits & 1 << length != 0 else {  // TOKEN-13
            throw c.error(.invalidValue, at: lengthOffset, "token length \(length) is not 6 or 8…16")
        }
        try c.expectDeclared(length, declaredAt: lengthOffset, "token")  // TOKEN-14
        let token = try c.readShortBytes(length, "token")
        let txPower = try c.readInt8("token Tx_Power")  // TOKEN-7, TOKEN-8, TOKEN-15
        try c.expectEnd("token advertisement")  // TOKEN-9, TOKEN-16
        return .v1(TokenAdvertisement(token: token, txPowerDBm: txPower, flags: versionByte & 0x0F))
    }

    /// The service data after the UUID, as an encoder writes it (TOKEN-1 to TOKEN-9).
    public var serviceData: [UInt8] {
        [Self.header, Self.majorVersion << 4 | (flags & 0x0F), UInt8(token.count)] + token + [
            UInt8(bitPattern: txPowerDBm)
        ]
    }

    /// The whole AD structure: length, type 0x16, UUID 0xFEF3 little-endian, service data.
    public var adStructure: [UInt8] {
        let body = serviceData
        return [UInt8(body.count + 3), ADType.serviceData16BitUUID.rawValue, 0xF3, 0xFE] + body
    }

    /// A complete legacy advertisement payload: Flags (LE General Discoverable, BR/EDR not
    /// supported), the complete 16-bit UUID list with 0xFEF3, and the token's service data.
    /// 21 bytes for a 6-byte token, 31 for a 16-byte one.
    public var advertisingData: [UInt8] {
        [0x02, ADType.flags.rawValue, 0x06, 0x03, ADType.completeList16BitUUIDs.rawValue, 0xF3, 0xFE] + adStructure
    }
}
