import NearbyBytes

/// The Eddystone frame 0x40 of Google's Find Hub network: an end-to-end encrypted EID of
/// 20 bytes (160-bit curve) or 32 bytes (256-bit curve), optionally followed by one byte
/// of hashed flags (EDDYSTONE-E2EE-1, EDDYSTONE-E2EE-2). Other lengths are `length-mismatch`
/// (EDDYSTONE-E2EE-3).
public struct EddystoneE2EEEID: EddystoneCursorFrame, Hashable, Sendable {
    public init(serviceData: ArraySlice<UInt8>) throws(DecodeError) { self = try Self.decoding(serviceData) }

    /// The encrypted EID, as sent: 20 bytes (160-bit curve) or 32 bytes (256-bit curve) from
    /// offset 1 of the service data (EDDYSTONE-E2EE-1).
    public var eid: [UInt8]
    /// The hashed flags byte after the EID (offset 21 or 33; EDDYSTONE-E2EE-2); nil when the
    /// frame ends with the EID (EDDYSTONE-E2EE-1).
    public var hashedFlags: UInt8?

    /// Reads the service data at the cursor to its end, frame type byte first.
    @inline(__always)
    package init(_ c: inout ByteCursor) throws(DecodeError) {
        c.layer = .eddystone
        try c.skip(1, "E2EE-EID frame type")
        let body = c.readableBytes
        switch body {
        case 20, 32:
            eid = try c.readArray(body, "E2EE-EID")
            hashedFlags = nil
        case 21, 33:
            eid = try c.readArray(body - 1, "E2EE-EID")
            hashedFlags = try c.readUInt8("E2EE-EID hashed flags")
        default:
            // EDDYSTONE-E2EE-3: at s + 1, the first byte after the frame type.
            throw c.error(
                .lengthMismatch, "E2EE-EID frame: \(body) bytes after the frame type, expected 20, 21, 32 or 33")
        }
    }
}
