import NearbyAudio
import NearbyBytes
import NearbyCapture
import NearbyDecode
import NearbyJSON
import NearbyMessages

/// The readable form of the engine's inputs, for the timeline a divergence report shows.
extension ReplaySession {
    static func describe(_ identity: SightingIdentity, _ medium: Medium) -> String {
        let kind =
            switch identity.kind {
            case .token: "token"
            case .eddystoneUID: "eddystone-uid"
            case .iBeacon: "ibeacon"
            case .altBeacon: "altbeacon"
            case .eddystoneEID: "eddystone-eid"
            }
        return "\(kind) \(Hex.encode(identity.bytes))" + (medium == .audio ? " (audio)" : "")
    }

    /// A scenario input as text: `subscribe doors`, `state bluetoothPower=off`, …
    public static func describe(_ input: Scenario.Input) -> String {
        switch input {
        case .sighting(let s): "sighting \(describe(s.identity, s.medium))"
        case .action(let a):
            switch a {
            case .subscribe(let id, _): "subscribe \(id)"
            case .unsubscribe(let id): "unsubscribe \(id)"
            case .publish(let id, _): "publish \(id)"
            case .unpublish(let id): "unpublish \(id)"
            case .changeState(let c):
                "state "
                    + [
                        c.nearbyPermission.map { "nearbyPermission=\($0.rawValue)" },
                        c.bluetoothPowerOn.map { "bluetoothPower=\($0 ? "on" : "off")" },
                        c.bluetoothPermission.map { "bluetoothPermission=\($0.rawValue)" },
                        c.microphonePermission.map { "microphonePermission=\($0.rawValue)" },
                        c.locationPermission.map { "locationPermission=\($0.rawValue)" },
                        c.appState.map { "appState=\($0.rawValue)" },
                    ].compactMap { $0 }.joined(separator: " ")
            case .stopNearby: "stopNearby"
            case .answerPermission(let granted): "permissionAnswer \(granted ? "granted" : "denied")"
            case .terminate: "terminate"
            case .launch: "launch"
            }
        }
    }
}
