/// The rule that stops a sighting counting for a subscription (docs/spec/engine.md), as
/// `replay --explain` names it: the rule's id (`rule`), a stable code for the situation
/// (`code`, kebab-case) and a sentence saying what the rule needs (`reason`).
public enum CountingStop: Hashable, Sendable {
    /// ENGINE-A1: the scenario has not made the subscription yet.
    case notSubscribedYet
    /// ENGINE-F5: the app released it (`unsubscribe`).
    case released
    /// ENGINE-F6: its TTL ran out.
    case expired
    /// ENGINE-F7: the user stopped Nearby for the app.
    case stoppedByUser
    /// ENGINE-L1: it ended with the app's process (`terminate`).
    case terminated
    /// ENGINE-A1, ENGINE-D2: the Nearby permission is not granted (its state).
    case nearbyPermission(PermissionState)
    /// ENGINE-A5: the strategy broadcasts only.
    case broadcastOnly
    /// ENGINE-A2: the strategy's discovery mediums leave out the sighting's medium.
    case mediumNotInStrategy(Medium)
    /// ENGINE-A2: Bluetooth is off.
    case bluetoothOff
    /// ENGINE-A2: the Bluetooth permission is not granted (its state).
    case bluetoothPermission(PermissionState)
    /// ENGINE-A2: the microphone permission is not granted (its state).
    case microphonePermission(PermissionState)
    /// ENGINE-A3: audio never counts in the background.
    case audioInBackground
    /// ENGINE-A3: in the background, and the strategy has no `allowInBackground`.
    case tokensInBackground
    /// ENGINE-A3: in the background, and the beacon strategy has no `allowInBackground`.
    case beaconsInBackground
    /// ENGINE-A4: the device types to discover leave out nearby devices (tokens).
    case nearbyDevicesNotDiscovered
    /// ENGINE-A4: the device types to discover leave out BLE beacons.
    case beaconsNotDiscovered
    /// ENGINE-A4: the beacon strategy has `includeIBeacons` off.
    case iBeaconsNotIncluded
    /// ENGINE-A4: the location permission does not allow iBeacon ranging now (its state).
    case locationNotAllowingRanging(LocationPermission)
    /// ENGINE-A6: a duty-cycled beacon scan, and the sighting falls between its windows.
    case outsideLowPowerWindow
    /// ENGINE-R1: the registry has no publication with this token.
    case tokenNotRegistered
    /// ENGINE-R1: the token is registered, but no assignment covers the sighting's time and medium.
    case tokenNotAssignedNow
    /// ENGINE-R2: the registry has no attachment for this beacon (and it has no reserved message).
    case noAttachments
    /// ENGINE-R2A: no registered EID beacon gives this EID in the window around the sighting's time.
    case eidNotResolved
    /// ENGINE-R3: the messages the sighting stands for are not in the subscription's filter.
    case filterMismatch

    /// The rule's id in docs/spec/engine.md.
    public var rule: String {
        switch self {
        case .notSubscribedYet, .nearbyPermission: "A1"
        case .released: "F5"
        case .expired: "F6"
        case .stoppedByUser: "F7"
        case .terminated: "L1"
        case .broadcastOnly: "A5"
        case .mediumNotInStrategy, .bluetoothOff, .bluetoothPermission, .microphonePermission: "A2"
        case .audioInBackground, .tokensInBackground, .beaconsInBackground: "A3"
        case .nearbyDevicesNotDiscovered, .beaconsNotDiscovered, .iBeaconsNotIncluded, .locationNotAllowingRanging:
            "A4"
        case .outsideLowPowerWindow: "A6"
        case .tokenNotRegistered, .tokenNotAssignedNow: "R1"
        case .noAttachments, .eidNotResolved: "R2"
        case .filterMismatch: "R3"
        }
    }

    /// A stable name for the situation.
    public var code: String {
        switch self {
        case .notSubscribedYet: "not-subscribed-yet"
        case .released: "released"
        case .expired: "expired"
        case .stoppedByUser: "stopped-by-user"
        case .terminated: "terminated"
        case .nearbyPermission: "nearby-permission"
        case .broadcastOnly: "broadcast-only"
        case .mediumNotInStrategy: "medium-not-in-strategy"
        case .bluetoothOff: "bluetooth-off"
        case .bluetoothPermission: "bluetooth-permission"
        case .microphonePermission: "microphone-permission"
        case .audioInBackground: "audio-in-background"
        case .tokensInBackground: "tokens-in-background"
        case .beaconsInBackground: "beacons-in-background"
        case .nearbyDevicesNotDiscovered: "nearby-devices-not-discovered"
        case .beaconsNotDiscovered: "beacons-not-discovered"
        case .iBeaconsNotIncluded: "ibeacons-not-included"
        case .locationNotAllowingRanging: "location-not-allowing-ranging"
        case .outsideLowPowerWindow: "outside-low-power-window"
        case .tokenNotRegistered: "token-not-registered"
        case .tokenNotAssignedNow: "token-not-assigned-now"
        case .noAttachments: "no-attachments"
        case .eidNotResolved: "eid-not-resolved"
        case .filterMismatch: "filter-mismatch"
        }
    }

    /// What the rule needs, and what the state is.
    public var reason: String {
        switch self {
        case .notSubscribedYet: "the subscription has not been made yet"
        case .released: "the app released the subscription"
        case .expired: "the subscription's TTL ran out"
        case .stoppedByUser: "the user stopped Nearby for the app"
        case .terminated: "the subscription ended with the app's process"
        case .nearbyPermission(let p): "nothing counts until the Nearby permission is granted (it is \(p.rawValue))"
        case .broadcastOnly: "the strategy broadcasts only: it counts nothing"
        case .mediumNotInStrategy(let m): "the strategy's discovery mediums leave out \(m.name)"
        case .bluetoothOff: "BLE sightings need Bluetooth on"
        case .bluetoothPermission(let p): "BLE sightings need the Bluetooth permission (it is \(p.rawValue))"
        case .microphonePermission(let p): "audio sightings need the microphone permission (it is \(p.rawValue))"
        case .audioInBackground: "audio never counts in the background"
        case .tokensInBackground: "in the background, token sightings need strategy.allowInBackground"
        case .beaconsInBackground: "in the background, beacon sightings need beaconStrategy.allowInBackground"
        case .nearbyDevicesNotDiscovered: "token sightings need nearby devices among the device types to discover"
        case .beaconsNotDiscovered: "beacon sightings need BLE beacons among the device types to discover"
        case .iBeaconsNotIncluded: "iBeacon sightings need beaconStrategy.includeIBeacons"
        case .locationNotAllowingRanging(let p):
            "iBeacon ranging needs the location permission: always, or whenInUse in the foreground "
                + "(it is \(p.rawValue))"
        case .outsideLowPowerWindow: "the low-power beacon scan was between its windows"
        case .tokenNotRegistered: "no registry publication has this token"
        case .tokenNotAssignedNow: "no assignment of this token covers this time and medium"
        case .noAttachments: "the registry has no attachment for this beacon"
        case .eidNotResolved: "no registered EID beacon gives this EID around this time"
        case .filterMismatch: "the messages it stands for are not in the subscription's namespace and type"
        }
    }
}
