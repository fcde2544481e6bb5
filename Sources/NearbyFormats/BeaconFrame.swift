import NearbyBytes

/// A beacon frame found in an advertisement's AD data.
public enum BeaconFrame: Hashable, Sendable {
    /// An Eddystone frame: Service Data on UUID 0xFEAA (EDDYSTONE-FRAME-2).
    case eddystone(EddystoneFrame)
    /// An iBeacon: Apple manufacturer data starting `02 15` (IBEACON-2).
    case iBeacon(IBeacon)
    /// An AltBeacon: manufacturer data of any company starting `BE AC` (ALTBEACON-2).
    case altBeacon(AltBeacon)
    /// A BLE token advertisement (docs/spec/ble-token.md) on UUID 0xFEF3.
    case token(TokenAdvertisement.Content)

    /// The `type` names of the decode output, in the order of `typeIndex`.
    public static let typeNames = (0..<11).map { typeName(at: $0).description }

    /// The `type` name at `index` (0…10): `eddystone-uid`, `eddystone-url`,
    /// `eddystone-tlm`, `eddystone-etlm`, `eddystone-eid`, `eddystone-e2ee-eid`,
    /// `eddystone-unknown`, `ibeacon`, `altbeacon`, `token-v1`, `token-unknown`.
    public static func typeName(at index: Int) -> StaticString {
        switch index {
        case 0: "eddystone-uid"
        case 1: "eddystone-url"
        case 2: "eddystone-tlm"
        case 3: "eddystone-etlm"
        case 4: "eddystone-eid"
        case 5: "eddystone-e2ee-eid"
        case 6: "eddystone-unknown"
        case 7: "ibeacon"
        case 8: "altbeacon"
        case 9: "token-v1"
        default: "token-unknown"
        }
    }

    /// The position of `typeName` in `typeNames` (0…10): a counter index that needs no
    /// hashing of strings.
    public var typeIndex: Int {
        switch self {
        case .eddystone(let frame):
            switch frame {
            case .uid: 0
            case .url: 1
            // EDDYSTONE-TLM-2: a TLM of another version keeps the type `eddystone-tlm`.
            case .tlm, .tlmUnknownVersion: 2
            case .encryptedTLM: 3
            case .eid: 4
            case .e2eeEID: 5
            case .unknown: 6
            }
        case .iBeacon: 7
        case .altBeacon: 8
        case .token(.v1): 9
        case .token(.unknownVersion): 10
        }
    }

    /// True when the frame holds a reference (an array, or URL bytes on the heap), false
    /// when it is plain bytes that need no destroying (`BeaconFrames.removeAll()`): the
    /// payloads of the other cases hold only integers and `ShortBytes`
    /// (`BeaconFramesTests` checks that they are plain values).
    @inlinable public var holdsReferences: Bool {
        switch self {
        case .iBeacon, .altBeacon, .token(.v1): false
        case .token(.unknownVersion): true
        case .eddystone(let frame):
            switch frame {
            case .uid, .tlm, .eid: false
            case .url(let url): url.encodedBytes.isOnHeap
            case .encryptedTLM, .tlmUnknownVersion, .e2eeEID, .unknown: true
            }
        }
    }

    /// The `type` name of the decode output (one of `typeNames`).
    public var typeName: String { Self.typeNames[typeIndex] }

    /// `typeName`, as the literal it is.
    public var staticTypeName: StaticString { Self.typeName(at: typeIndex) }
}
