/// A beacon frame found in an advertisement's AD data.
public enum BeaconFrame: Hashable, Sendable {
    case eddystone(EddystoneFrame)
    case iBeacon(IBeacon)
    case altBeacon(AltBeacon)
    /// A BLE token advertisement (docs/token-format.md) on UUID 0xFEF3.
    case token(TokenAdvertisement.Content)

    /// The `type` name of the decode output: `eddystone-uid`, `eddystone-url`,
    /// `eddystone-tlm`, `eddystone-etlm`, `eddystone-eid`, `eddystone-e2ee-eid`,
    /// `eddystone-unknown`, `ibeacon`, `altbeacon`, `token-v1`, `token-unknown`.
    public var typeName: String {
        switch self {
        case .eddystone(let frame):
            switch frame {
            case .uid: "eddystone-uid"
            case .url: "eddystone-url"
            case .tlm, .tlmUnknownVersion: "eddystone-tlm"
            case .encryptedTLM: "eddystone-etlm"
            case .eid: "eddystone-eid"
            case .e2eeEID: "eddystone-e2ee-eid"
            case .unknown: "eddystone-unknown"
            }
        case .iBeacon: "ibeacon"
        case .altBeacon: "altbeacon"
        case .token(.v1): "token-v1"
        case .token(.unknownVersion): "token-unknown"
        }
    }
}
