import NearbyBytes

/// Encrypted Eddystone-TLM, version 1 (docs/spec/eddystone.md, EDDYSTONE-ETLM-):
/// `20 | 01 | ETLM(12) | SALT(2) | MIC(2)`: 18 bytes by Google's specification, 19 in
/// Nordic's firmware, which appends an RFU byte (EDDYSTONE-ETLM-3). Fields are exposed as
/// sent (EDDYSTONE-ETLM-1); decryption needs the beacon's identity key and belongs to the
/// EID resolver (EDDYSTONE-ETLM-5, ETLM-CRYPTO-).
public struct EddystoneEncryptedTLM: EddystoneCursorFrame, Hashable, Sendable {
    public init(serviceData: ArraySlice<UInt8>) throws(DecodeError) { self = try Self.decoding(serviceData) }

    /// ETLM: the 12 bytes of encrypted telemetry, offsets 2–13, as sent (EDDYSTONE-ETLM-1).
    public var ciphertext: [UInt8]
    /// SALT: 2 bytes, offsets 14–15, as sent (EDDYSTONE-ETLM-1).
    public var salt: [UInt8]
    /// MIC: the 2-byte integrity check, offsets 16–17, as sent (EDDYSTONE-ETLM-1).
    public var mic: [UInt8]
    /// Nordic's extra trailing byte, when the frame has 19 bytes.
    public var nordicPadding: UInt8?

    /// Reads the service data at the cursor to its end, frame type byte first.
    @inline(__always)
    package init(_ c: inout ByteCursor) throws(DecodeError) {
        c.layer = .eddystone
        try c.skip(2, "eTLM frame type and version")
        // EDDYSTONE-ETLM-2: `truncated` at s + 2, s + 14, s + 16.
        ciphertext = try c.readArray(12, "eTLM ETLM")
        salt = try c.readArray(2, "eTLM SALT")
        mic = try c.readArray(2, "eTLM MIC")
        // EDDYSTONE-ETLM-3: a 19th byte is read; EDDYSTONE-ETLM-4: `trailing-bytes` at s + 19.
        nordicPadding = c.isAtEnd ? nil : try c.readUInt8("eTLM Nordic RFU")
        try c.expectEnd("eTLM frame")
    }
}
