import NearbyBytes

/// Encrypted Eddystone-TLM, version 1 (eddystone-tlm/tlm-encrypted.md; formats.md §1.6):
/// `20 | 01 | ETLM(12) | SALT(2) | MIC(2)`: 18 bytes by Google's specification, 19 in
/// Nordic's firmware, which appends an RFU byte. Fields are exposed as sent; decryption
/// needs the beacon's identity key and belongs to the EID resolver.
public struct EddystoneEncryptedTLM: EddystoneServiceData, Hashable, Sendable {
    public var ciphertext: [UInt8]
    public var salt: [UInt8]
    public var mic: [UInt8]
    /// Nordic's extra trailing byte, when the frame has 19 bytes.
    public var nordicPadding: UInt8?

    /// Reads the service data at the cursor to its end, frame type byte first.
    @inline(__always)
    public init(_ c: inout ByteCursor) throws(DecodeError) {
        c.layer = .eddystone
        try c.skip(2, "eTLM frame type and version")
        ciphertext = try c.readArray(12, "eTLM ETLM")
        salt = try c.readArray(2, "eTLM SALT")
        mic = try c.readArray(2, "eTLM MIC")
        nordicPadding = c.isAtEnd ? nil : try c.readUInt8("eTLM Nordic RFU")
        try c.expectEnd("eTLM frame")
    }
}
