import NearbyBytes

/// A decoded Eddystone frame (the service data of UUID 0xFEAA).
public enum EddystoneFrame: Hashable, Sendable {
    case uid(EddystoneUID)
    case url(EddystoneURL)
    case tlm(EddystoneTLM)
    case encryptedTLM(EddystoneEncryptedTLM)
    /// A TLM frame of a version this decoder does not know (not 0 or 1), with its bytes.
    case tlmUnknownVersion(version: UInt8, serviceData: [UInt8])
    case eid(EddystoneEID)
    case e2eeEID(EddystoneE2EEEID)
    /// Any other frame type, with the whole service data.
    case unknown(frameType: UInt8, serviceData: [UInt8])

    /// Decodes service data after the 0xFEAA UUID. Empty service data is `truncated`.
    public init(serviceData: ArraySlice<UInt8>) throws(DecodeError) {
        var c = ByteCursor(serviceData, layer: .eddystone)
        let type = EddystoneFrameType(rawValue: try c.readUInt8("frame type"))
        switch type {
        case .uid: self = .uid(try EddystoneUID(serviceData: serviceData))
        case .url: self = .url(try EddystoneURL(serviceData: serviceData))
        case .tlm:
            switch try c.readUInt8("TLM version") {
            case 0: self = .tlm(try EddystoneTLM(serviceData: serviceData))
            case 1: self = .encryptedTLM(try EddystoneEncryptedTLM(serviceData: serviceData))
            case let v: self = .tlmUnknownVersion(version: v, serviceData: Array(serviceData))
            }
        case .eid: self = .eid(try EddystoneEID(serviceData: serviceData))
        case .e2eeEID: self = .e2eeEID(try EddystoneE2EEEID(serviceData: serviceData))
        default: self = .unknown(frameType: type.rawValue, serviceData: Array(serviceData))
        }
    }
}
