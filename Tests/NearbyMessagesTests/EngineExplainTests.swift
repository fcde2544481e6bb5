import NearbyMessages
import Testing

/// `explain`: for each rule that can stop a sighting, a situation built from the rule's text
/// in docs/spec/engine.md and the rule id and code it must name; and the counted case, found
/// (ENGINE-F1) then seen again (ENGINE-F2). Expected values are written by hand from the rules.
@Suite struct EngineExplainTests {
    typealias S = EngineScript
    static let chat = SubscriptionParams(type: "chat")
    static let beacons = SubscriptionParams(deviceTypes: .bleBeacons, messageNamespace: "proj", type: "door")

    /// The verdict for subscription s1 of a sighting at `t` seconds, asked as `replay` asks.
    static func verdict(
        _ s: inout S, _ t: Double, _ kind: SightingIdentity.Kind = .token, _ bytes: [UInt8] = S.tokenA,
        medium: Medium = .ble
    ) -> SubscriptionEngine.SightingVerdict? {
        s.advance(t)
        let sighting = Sighting(timeMicros: S.micros(t), medium: medium, identity: SightingIdentity(kind, bytes))
        return s.engine.explain(sighting).first { $0.subscription == "s1" }
    }

    static func stop(
        _ s: inout S, _ t: Double, _ kind: SightingIdentity.Kind = .token, _ bytes: [UInt8] = S.tokenA,
        medium: Medium = .ble
    ) -> (rule: String, code: String)? {
        verdict(&s, t, kind, bytes, medium: medium)?.stop.map { ($0.rule, $0.code) }
    }

    @Test func aCountedSightingFindsThenRefreshesItsMessage() {
        var s = S()
        s.subscribe(0, "s1", Self.chat)
        let first = Self.verdict(&s, 1)
        #expect(first?.stop == nil)
        #expect(first?.messages == [.init(message: S.text("", "chat", "hello"), newlyFound: true)])
        s.token(1)
        #expect(Self.verdict(&s, 2)?.messages.map(\.newlyFound) == [false])
    }

    @Test func aSubscriptionNotYetMadeHasNoVerdictFromTheEngine() {
        var s = S()
        #expect(Self.verdict(&s, 1) == nil)
    }

    @Test func theSubscriptionsOwnEndStopsItFirst() {
        var s = S()
        s.subscribe(0, "s1", Self.chat)
        s.at(1, .unsubscribe(id: "s1"))
        #expect(Self.stop(&s, 2)! == ("F5", "released"))

        var ttl = S()
        ttl.subscribe(0, "s1", SubscriptionParams(type: "chat", strategy: Strategy(ttl: .micros(5_000_000))))
        #expect(Self.stop(&ttl, 6)! == ("F6", "expired"))

        var user = S()
        user.subscribe(0, "s1", Self.chat)
        user.at(1, .stopNearby)
        #expect(Self.stop(&user, 2)! == ("F7", "stopped-by-user"))

        var gone = S()
        gone.subscribe(0, "s1", Self.chat)
        gone.at(1, .terminate)
        #expect(Self.stop(&gone, 2)! == ("L1", "terminated"))
    }

    @Test func nothingCountsBeforeTheNearbyPermissionOrWhenBroadcastingOnly() {
        var state = DeviceState()
        state.nearbyPermission = .notDetermined
        var s = S(state: state)
        s.subscribe(0, "s1", Self.chat)
        #expect(Self.stop(&s, 1)! == ("A1", "nearby-permission"))

        var broadcast = S()
        broadcast.subscribe(0, "s1", SubscriptionParams(type: "chat", strategy: Strategy(mode: .broadcast)))
        #expect(Self.stop(&broadcast, 1)! == ("A5", "broadcast-only"))
    }

    @Test func theMediumMustBeInTheStrategyAndUsable() {
        var audioOnly = S()
        audioOnly.subscribe(0, "s1", SubscriptionParams(type: "chat", strategy: Strategy(mediums: .audio)))
        #expect(Self.stop(&audioOnly, 1)! == ("A2", "medium-not-in-strategy"))

        var off = S()
        off.subscribe(0, "s1", Self.chat)
        off.state(1, StateChange(bluetoothPowerOn: false))
        #expect(Self.stop(&off, 2)! == ("A2", "bluetooth-off"))

        var denied = S()
        denied.subscribe(0, "s1", Self.chat)
        denied.state(1, StateChange(bluetoothPermission: .denied))
        #expect(Self.stop(&denied, 2)! == ("A2", "bluetooth-permission"))

        var deaf = S()
        deaf.subscribe(0, "s1", Self.chat)
        deaf.state(1, StateChange(microphonePermission: .denied))
        #expect(Self.stop(&deaf, 2, .token, S.tokenAudioOnly, medium: .audio)! == ("A2", "microphone-permission"))
    }

    @Test func theBackgroundNeedsItsAllowances() {
        let background = StateChange(appState: .background)
        var audio = S()
        audio.subscribe(0, "s1", SubscriptionParams(type: "chat", strategy: Strategy(allowInBackground: true)))
        audio.state(1, background)
        #expect(Self.stop(&audio, 2, .token, S.tokenAudioOnly, medium: .audio)! == ("A3", "audio-in-background"))

        var tokens = S()
        tokens.subscribe(0, "s1", Self.chat)
        tokens.state(1, background)
        #expect(Self.stop(&tokens, 2)! == ("A3", "tokens-in-background"))

        var beacons = S()
        beacons.subscribe(0, "s1", Self.beacons)
        beacons.state(1, background)
        #expect(Self.stop(&beacons, 2, .eddystoneUID, S.uid)! == ("A3", "beacons-in-background"))
    }

    @Test func theDeviceTypesAndTheLocationDecideWhatIsScannedFor() {
        var beaconsOnly = S()
        beaconsOnly.subscribe(0, "s1", Self.beacons)
        #expect(Self.stop(&beaconsOnly, 1)! == ("A4", "nearby-devices-not-discovered"))

        var tokensOnly = S()
        tokensOnly.subscribe(0, "s1", SubscriptionParams(messageNamespace: "proj", type: "door"))
        #expect(Self.stop(&tokensOnly, 1, .eddystoneUID, S.uid)! == ("A4", "beacons-not-discovered"))

        var noIBeacons = S()
        noIBeacons.subscribe(
            0, "s1",
            SubscriptionParams(
                deviceTypes: .bleBeacons, messageNamespace: "proj", type: "door",
                beaconStrategy: BeaconStrategy(includeIBeacons: false)))
        #expect(Self.stop(&noIBeacons, 1, .iBeacon, S.iBeaconID)! == ("A4", "ibeacons-not-included"))

        var state = DeviceState()
        state.locationPermission = .whenInUse
        var whenInUse = S(state: state)
        whenInUse.subscribe(
            0, "s1",
            SubscriptionParams(
                deviceTypes: .bleBeacons, messageNamespace: "proj", type: "door",
                beaconStrategy: BeaconStrategy(allowInBackground: true)))
        whenInUse.state(1, StateChange(appState: .background))
        #expect(Self.stop(&whenInUse, 2, .iBeacon, S.iBeaconID)! == ("A4", "location-not-allowing-ranging"))
    }

    @Test func aDutyCycledBeaconScanHearsOnlyInItsWindows() {
        // ENGINE-A6: without ranging (location denied) Eddystone is duty-cycled: 1 s every 10 s
        // from the subscription's creation at 0.
        var state = DeviceState()
        state.locationPermission = .denied
        var s = S(state: state, lowPowerScan: LowPowerScan(windowMicros: 1_000_000, intervalMicros: 10_000_000))
        s.subscribe(0, "s1", Self.beacons)
        #expect(Self.stop(&s, 5, .eddystoneUID, S.uid)! == ("A6", "outside-low-power-window"))
        #expect(Self.verdict(&s, 10.5, .eddystoneUID, S.uid)?.stop == nil)
    }

    @Test func aSightingMustStandForAMessageOfTheFilter() {
        var s = S()
        s.subscribe(0, "s1", Self.chat)
        #expect(Self.stop(&s, 1, .token, [9, 9, 9, 9, 9, 9])! == ("R1", "token-not-registered"))
        // "late" is published from 50 s to 60 s only; "quiet"'s token is for audio only.
        #expect(Self.stop(&s, 2, .token, [1, 2, 3, 4, 5, 6])! == ("R1", "token-not-assigned-now"))
        #expect(Self.stop(&s, 3, .token, S.tokenAudioOnly)! == ("R1", "token-not-assigned-now"))

        var b = S()
        b.subscribe(0, "s1", Self.beacons)
        #expect(Self.stop(&b, 1, .altBeacon, Array(0x50..<0x64))! == ("R2", "no-attachments"))
        #expect(Self.stop(&b, 2, .eddystoneEID, Array(0x70..<0x78))! == ("R2", "eid-not-resolved"))

        var other = S()
        other.subscribe(0, "s1", SubscriptionParams(type: "news"))
        #expect(Self.stop(&other, 1)! == ("R3", "filter-mismatch"))
        // An Eddystone-UID always stands for its reserved message (ENGINE-R2), which only a
        // subscription to the reserved namespace selects.
        #expect(Self.stop(&b, 3, .eddystoneUID, Array(0x60..<0x70))! == ("R3", "filter-mismatch"))
    }
}
