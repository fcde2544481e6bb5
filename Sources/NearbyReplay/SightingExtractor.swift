import NearbyBytes
import NearbyDecode
import NearbyFormats
import NearbyMessages

/// Turns decoded advertisements into engine sightings: Eddystone-UID, Eddystone-EID, iBeacon,
/// AltBeacon and BLE token v1 frames. URL and TLM frames identify no beacon and are not
/// sightings.
public enum SightingExtractor {
    /// The identity of each beacon or token frame of the advertisement, in frame order.
    public static func identities(_ decoded: DecodedAdvertisement) -> [SightingIdentity] {
        var found: [SightingIdentity] = []
        identities(decoded) { found.append($0) }
        return found
    }

    /// `identities(_:)`, each lent to `body` as found.
    package static func identities(_ decoded: DecodedAdvertisement, _ body: (SightingIdentity) -> Void) {
        for beacon in decoded.beacons {
            switch beacon {
            case .eddystone(.uid(let uid)):
                body(SightingIdentity(.eddystoneUID, uid.namespace.appending(uid.instance)))
            case .eddystone(.eid(let eid)):
                body(SightingIdentity(.eddystoneEID, eid.eid))
            case .iBeacon(let b):
                let majorMinor = ShortBytes(bigEndian: UInt32(b.major) << 16 | UInt32(b.minor))
                body(SightingIdentity(.iBeacon, b.uuid.appending(majorMinor)))
            case .altBeacon(let b):
                body(SightingIdentity(.altBeacon, b.beaconID))
            case .token(.v1(let t)):
                body(SightingIdentity(.token, t.token))
            default:
                break
            }
        }
    }

    /// Why a beacon frame is no sighting, or nil for the frames `identities` gives: what
    /// `replay --explain` counts beside the sightings (docs/scenario-format.md).
    public static func notASighting(_ beacon: BeaconFrame) -> String? {
        switch beacon {
        case .eddystone(.uid), .eddystone(.eid), .iBeacon, .altBeacon, .token(.v1): nil
        case .eddystone(.tlm): "telemetry names no beacon"
        case .eddystone(.encryptedTLM): "encrypted telemetry names no beacon"
        case .eddystone(.url): "a URL names no beacon: no message is attached to it"
        case .eddystone(.e2eeEID): "an end-to-end encrypted EID resolves with its owner's key only"
        default: "a frame of a type or version the engine does not read"
        }
    }
}
