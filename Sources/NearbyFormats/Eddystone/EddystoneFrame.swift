import NearbyBytes

/// A decoded Eddystone frame (the service data of UUID 0xFEAA).
public enum EddystoneFrame: EddystoneCursorFrame, Hashable, Sendable {
    public init(serviceData: ArraySlice<UInt8>) throws(DecodeError) { self = try Self.decoding(serviceData) }

    /// A UID frame (frame type 0x00).
    case uid(EddystoneUID)
    /// A URL frame (frame type 0x10).
    case url(EddystoneURL)
    /// An unencrypted TLM frame (frame type 0x20, version 0; EDDYSTONE-TLM-1).
    case tlm(EddystoneTLM)
    /// An encrypted TLM frame (frame type 0x20, version 1; EDDYSTONE-TLM-1).
    case encryptedTLM(EddystoneEncryptedTLM)
    /// A TLM frame of a version this decoder does not know (not 0 or 1), with its bytes
    /// (EDDYSTONE-TLM-2).
    case tlmUnknownVersion(version: UInt8, serviceData: [UInt8])
    /// An EID frame (frame type 0x30).
    case eid(EddystoneEID)
    /// An E2EE-EID frame of Google's Find Hub network (frame type 0x40; EDDYSTONE-E2EE-1).
    case e2eeEID(EddystoneE2EEEID)
    /// Any other frame type, with the whole service data (EDDYSTONE-FRAME-10).
    case unknown(frameType: UInt8, serviceData: [UInt8])

    /// Reads the service data at the cursor to its end, frame type byte first. Empty service
    /// data is `truncated` (EDDYSTONE-FRAME-9).
    @inline(__always)
    package init(_ c: inout ByteCursor) throws(DecodeError) {
        c.layer = .eddystone
        // The frame's own decoder reads the service data from its first byte: look ahead
        // on a copy of the cursor (a copy borrows the same bytes).
        var ahead = c
        // EDDYSTONE-FRAME-8, EDDYSTONE-FRAME-9: the frame type, `truncated` at s + 0 when absent.
        let type = EddystoneFrameType(rawValue: try ahead.readUInt8("frame type"))
        switch type {
        case .uid: self = .uid(try EddystoneUID(&c))
        case .url: self = .url(try EddystoneURL(&c))
        case .tlm:
            // EDDYSTONE-TLM-1; EDDYSTONE-TLM-3: `truncated` at s + 1 without a version.
            switch try ahead.readUInt8("TLM version") {
            case 0: self = .tlm(try EddystoneTLM(&c))
            case 1: self = .encryptedTLM(try EddystoneEncryptedTLM(&c))
            // EDDYSTONE-TLM-2: another version is reported, not a fault.
            case let v: self = .tlmUnknownVersion(version: v, serviceData: c.readRestArray())
            }
        case .eid: self = .eid(try EddystoneEID(&c))
        case .e2eeEID: self = .e2eeEID(try EddystoneE2EEEID(&c))
        // EDDYSTONE-FRAME-10: an unknown frame type is reported whole, whatever its length.
        default: self = .unknown(frameType: type.rawValue, serviceData: c.readRestArray())
        }
    }
}
