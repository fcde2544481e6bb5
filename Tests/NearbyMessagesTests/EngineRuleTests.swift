import NearbyMessages
import Testing

/// One or more tests per rule of docs/spec/engine.md (the rule id leads each comment). Every
/// expected event list is written by hand from the rule, never produced by the engine.
@Suite struct EngineRuleTests {
    typealias S = EngineScript
    static let doors = SubscriptionParams(deviceTypes: .bleBeacons, messageNamespace: "proj", type: "door")

    static func chat(
        mediums: DiscoveryMediums = .default, mode: DiscoveryMode = .default, background: Bool = false,
        ttl: TimeToLive = .default
    ) -> SubscriptionParams {
        SubscriptionParams(
            type: "chat", strategy: Strategy(mediums: mediums, mode: mode, allowInBackground: background, ttl: ttl))
    }

    // ENGINE-O1
    @Test func inputEarlierThanTheEngineTimeIsRefusedAndChangesNothing() throws {
        var s = S()
        s.subscribe(0, "s1")
        s.token(5)
        #expect(throws: EngineInputError.self) {
            _ = try s.engine.sight(
                Sighting(timeMicros: 4_000_000, medium: .ble, identity: SightingIdentity(.token, S.tokenA)))
        }
        s.finish()
        #expect(s.lines == ["5 found s1 /chat:hello", "15 lost s1 /chat:hello"])
    }

    // ENGINE-O2
    @Test func sightingExactlyOneTimeoutLaterIsLostThenFoundAgain() {
        var s = S()
        s.subscribe(0, "s1")
        s.token(1)
        s.token(11)
        s.token(12)
        s.finish()
        #expect(
            s.lines == [
                "1 found s1 /chat:hello", "11 lost s1 /chat:hello", "11 found s1 /chat:hello", "22 lost s1 /chat:hello",
            ])
    }

    @Test func sightingJustBeforeTheTimeoutKeepsTheMessage() {
        var s = S()
        s.subscribe(0, "s1")
        s.token(1)
        s.token(10.999999)
        s.finish()
        #expect(s.lines == ["1 found s1 /chat:hello", "20.999999 lost s1 /chat:hello"])
    }

    // ENGINE-O3
    @Test func eventsOfOneInstantAreOrderedByKindThenIdThenMessage() {
        var s = S()
        s.subscribe(0, "zeta")
        s.subscribe(0, "alpha")
        s.token(1, S.tokenB)
        s.token(1, S.tokenA)
        s.token(2, S.tokenA)
        s.state(3, StateChange(nearbyPermission: .denied))
        #expect(
            s.lines == [
                "1 found alpha /chat:world", "1 found zeta /chat:world",
                "1 found alpha /chat:hello", "1 found zeta /chat:hello",
                "3 permissionChanged denied",
                "3 lost alpha /chat:hello", "3 lost alpha /chat:world",
                "3 lost zeta /chat:hello", "3 lost zeta /chat:world",
            ])
    }

    // ENGINE-A1
    @Test func nothingCountsWithoutNearbyPermission() {
        var st = DeviceState()
        st.nearbyPermission = .notDetermined
        var s = S(state: st)
        s.subscribe(0, "s1")
        s.token(1)
        s.state(2, StateChange(nearbyPermission: .granted))
        s.token(3)
        s.finish()
        // ENGINE-D1: the subscription made before consent shows the dialog.
        #expect(
            s.lines == [
                "0 permissionRequest s1 nearby", "2 permissionChanged granted", "3 found s1 /chat:hello",
                "13 lost s1 /chat:hello",
            ])
    }

    // ENGINE-A2
    @Test func bleSightingsNeedBluetoothOnAndItsPermission() {
        var st = DeviceState()
        st.bluetoothPowerOn = false
        var s = S(state: st)
        s.subscribe(0, "s1")
        s.token(1)
        s.state(2, StateChange(bluetoothPowerOn: true, bluetoothPermission: .notDetermined))
        s.token(3)
        s.state(4, StateChange(bluetoothPermission: .granted))
        s.token(5)
        s.finish()
        #expect(
            s.lines == [
                "0 bluetoothPowerError hasError",
                "2 bluetoothPowerError clear", "5 found s1 /chat:hello", "15 lost s1 /chat:hello",
            ])
    }

    @Test func audioSightingsNeedTheMicrophonePermission() {
        var st = DeviceState()
        st.microphonePermission = .denied
        var s = S(state: st)
        s.subscribe(0, "s1")
        s.token(1, S.tokenAudioOnly, medium: .audio)
        s.state(2, StateChange(microphonePermission: .granted))
        s.token(3, S.tokenAudioOnly, medium: .audio)
        s.finish()
        #expect(
            s.lines == [
                "0 microphonePermissionError hasError", "2 microphonePermissionError clear",
                "3 found s1 /chat:quiet", "13 lost s1 /chat:quiet",
            ])
    }

    @Test func mediumsOutsideTheStrategyDoNotCount() {
        var s = S()
        s.subscribe(0, "bleOnly", Self.chat(mediums: .ble))
        s.subscribe(0, "audioOnly", Self.chat(mediums: .audio))
        s.token(1, S.tokenA, medium: .audio)
        s.token(2, S.tokenB, medium: .ble)
        s.finish()
        #expect(
            s.lines == [
                "1 found audioOnly /chat:hello", "2 found bleOnly /chat:world",
                "11 lost audioOnly /chat:hello", "12 lost bleOnly /chat:world",
            ])
    }

    // ENGINE-A3
    @Test func backgroundStopsSubscriptionsWithoutAllowance() {
        var s = S()
        s.subscribe(0, "s1")
        s.token(1)
        s.state(2, StateChange(appState: .background))
        s.token(3)
        s.state(4, StateChange(appState: .foreground))
        s.token(5)
        s.finish()
        #expect(
            s.lines == [
                "1 found s1 /chat:hello", "2 lost s1 /chat:hello", "5 found s1 /chat:hello", "15 lost s1 /chat:hello",
            ])
    }

    @Test func backgroundWithAllowanceKeepsBLEButNeverAudio() {
        var s = S()
        s.subscribe(0, "s1", Self.chat(background: true))
        s.token(1, S.tokenA, medium: .ble)
        s.token(1, S.tokenAudioOnly, medium: .audio)
        s.state(2, StateChange(appState: .background))
        s.token(3, S.tokenA, medium: .ble)
        s.token(3, S.tokenAudioOnly, medium: .audio)
        s.finish()
        #expect(
            s.lines == [
                "1 found s1 /chat:hello", "1 found s1 /chat:quiet", "2 lost s1 /chat:quiet", "13 lost s1 /chat:hello",
            ])
    }

    @Test func beaconsInTheBackgroundFollowTheBeaconStrategy() {
        var st = DeviceState()
        st.appState = .background
        var s = S(state: st)
        var allowed = Self.doors
        allowed.beaconStrategy.allowInBackground = true
        s.subscribe(0, "plain", Self.doors)
        s.subscribe(0, "allowed", allowed)
        s.see(1, .eddystoneUID, S.uid)
        s.finish()
        #expect(s.lines == ["1 found allowed proj/door:front", "11 lost allowed proj/door:front"])
    }

    // ENGINE-A4
    @Test func tokensNeedNearbyDevicesAndBeaconsNeedBLEBeacons() {
        var s = S()
        s.subscribe(0, "chat", Self.chat())
        s.subscribe(0, "beaconChat", SubscriptionParams(deviceTypes: .bleBeacons, type: "chat"))
        s.subscribe(
            0, "doorsNearby", SubscriptionParams(deviceTypes: .nearbyDevices, messageNamespace: "proj", type: "door"))
        s.subscribe(0, "doors", Self.doors)
        s.token(1)
        s.see(2, .eddystoneUID, S.uid)
        s.finish()
        #expect(
            s.lines == [
                "1 found chat /chat:hello", "2 found doors proj/door:front", "11 lost chat /chat:hello",
                "12 lost doors proj/door:front",
            ])
    }

    @Test func iBeaconsNeedIncludeIBeaconsAndLocationPermission() {
        var st = DeviceState()
        st.locationPermission = .denied
        var s = S(state: st)
        var noIBeacons = Self.doors
        noIBeacons.beaconStrategy.includeIBeacons = false
        s.subscribe(0, "doors", Self.doors)
        s.subscribe(0, "noIBeacons", noIBeacons)
        s.see(1, .iBeacon, S.iBeaconID)
        s.state(2, StateChange(locationPermission: .always))
        s.see(3, .iBeacon, S.iBeaconID)
        s.state(4, StateChange(locationPermission: .denied))
        s.finish()
        #expect(s.lines == ["3 found doors proj/door:back", "4 lost doors proj/door:back"])
    }

    // ENGINE-A5
    @Test func broadcastOnlySubscriptionFindsNothing() {
        var s = S()
        s.subscribe(0, "s1", Self.chat(mode: .broadcast))
        s.token(1)
        s.finish()
        #expect(s.lines == [])
    }

    // ENGINE-R1
    @Test func tokenStandsForItsPublicationOnlyWithinItsInterval() {
        var s = S()
        s.subscribe(0, "s1")
        s.token(49, [1, 2, 3, 4, 5, 6])
        s.token(50, [1, 2, 3, 4, 5, 6])
        s.token(59.999999, [1, 2, 3, 4, 5, 6])
        s.token(60, [1, 2, 3, 4, 5, 6])
        s.token(100, S.tokenA)
        s.finish()
        #expect(s.lines == ["50 found s1 /chat:late", "69.999999 lost s1 /chat:late"])
    }

    @Test func tokenAssignedToAudioDoesNotResolveOverBLE() {
        var s = S()
        s.subscribe(0, "s1")
        s.token(1, S.tokenAudioOnly, medium: .ble)
        s.token(2, S.tokenAudioOnly, medium: .audio)
        s.finish()
        #expect(s.lines == ["2 found s1 /chat:quiet", "12 lost s1 /chat:quiet"])
    }

    // ENGINE-R2
    @Test func eddystoneUIDAlsoYieldsItsReservedMessage() {
        var s = S()
        s.subscribe(
            0, "raw",
            SubscriptionParams(
                deviceTypes: .bleBeacons, messageNamespace: "__reserved_namespace", type: "__eddystone_uid"))
        s.subscribe(0, "doors", Self.doors)
        s.see(1, .eddystoneUID, S.uid)
        s.see(2, .eddystoneUID, Array(0x50..<0x60))
        s.finish()
        #expect(
            s.lines
                == [
                    "1 found doors proj/door:front",
                    "1 found raw __reserved_namespace/__eddystone_uid:" + "101112131415161718191a1b1c1d1e1f",
                    "2 found raw __reserved_namespace/__eddystone_uid:" + "505152535455565758595a5b5c5d5e5f",
                    "11 lost doors proj/door:front",
                    "11 lost raw __reserved_namespace/__eddystone_uid:" + "101112131415161718191a1b1c1d1e1f",
                    "12 lost raw __reserved_namespace/__eddystone_uid:" + "505152535455565758595a5b5c5d5e5f",
                ].map(Self.hexToText))
    }

    @Test func iBeaconYieldsItsTwentyByteReservedMessage() {
        var s = S()
        s.subscribe(
            0, "raw",
            SubscriptionParams(
                deviceTypes: .bleBeacons, messageNamespace: "__reserved_namespace", type: "__i_beacon_id"))
        s.see(1, .iBeacon, S.iBeaconID)
        s.see(2, .altBeacon, S.iBeaconID)
        s.finish()
        let hex = "303132333435363738393a3b3c3d3e3f40414243"
        #expect(
            s.lines == [
                Self.hexToText("1 found raw __reserved_namespace/__i_beacon_id:" + hex),
                Self.hexToText("11 lost raw __reserved_namespace/__i_beacon_id:" + hex),
            ])
    }

    /// The script renders content as text when it is valid UTF-8; these IDs are ASCII bytes
    /// 0x10–0x1f etc., so expected lines are written in hex and converted the same way.
    static func hexToText(_ line: String) -> String {
        guard line.contains("__reserved_namespace"), let colon = line.lastIndex(of: ":") else { return line }
        let hex = line[line.index(after: colon)...]
        var bytes: [UInt8] = []
        var i = hex.startIndex
        while i < hex.endIndex {
            let j = hex.index(i, offsetBy: 2)
            bytes.append(UInt8(hex[i..<j], radix: 16)!)
            i = j
        }
        return String(line[...colon]) + (String(validating: bytes, as: UTF8.self) ?? String(hex))
    }

    // ENGINE-R3
    @Test func filterMatchesNamespaceAndTypeExactly() {
        var s = S()
        s.subscribe(0, "chat", SubscriptionParams(type: "chat"))
        s.subscribe(0, "other", SubscriptionParams(type: "Chat"))
        s.subscribe(0, "wrongNamespace", SubscriptionParams(messageNamespace: "proj", type: "chat"))
        s.token(1)
        s.finish()
        #expect(s.lines == ["1 found chat /chat:hello", "11 lost chat /chat:hello"])
    }

    // ENGINE-R3A
    @Test func emptyNamespaceMeansTheProjectNamespaceOnBothSides() {
        // The registry's chat messages have namespace "": the project's, so with
        // projectNamespace "proj" they are proj/chat, which "chat" (namespace "" = proj) selects.
        var s = S(projectNamespace: "proj")
        s.subscribe(0, "mine", SubscriptionParams(deviceTypes: .bleBeacons, type: "door"))
        s.subscribe(0, "chat", SubscriptionParams(type: "chat"))
        s.subscribe(0, "otherNamespace", SubscriptionParams(messageNamespace: "other", type: "chat"))
        s.see(1, .eddystoneUID, S.uid)
        s.token(1)
        s.finish()
        #expect(
            s.lines == [
                "1 found mine proj/door:front", "1 found chat proj/chat:hello",
                "11 lost chat proj/chat:hello", "11 lost mine proj/door:front",
            ])
    }

    // ENGINE-R4
    @Test func tokenRotationKeepsOneFoundAndOneLost() {
        var s = S()
        s.subscribe(0, "s1")
        s.token(95, S.tokenA)
        s.token(99, S.tokenA)
        s.token(101, S.tokenA2)
        s.token(101, S.tokenA)
        s.token(105, S.tokenA2)
        s.finish()
        #expect(s.lines == ["95 found s1 /chat:hello", "115 lost s1 /chat:hello"])
    }

    @Test func messageOnTwoMediumsIsOneMessage() {
        var s = S()
        s.subscribe(0, "s1")
        s.token(1, S.tokenA, medium: .ble)
        s.token(4, S.tokenA, medium: .audio)
        s.token(6, S.tokenA, medium: .ble)
        s.finish()
        #expect(s.lines == ["1 found s1 /chat:hello", "16 lost s1 /chat:hello"])
    }

    // ENGINE-F1, ENGINE-F2
    @Test func foundAtTheFirstSightingLostAtTheLastPlusTheTimeout() {
        var s = S(lostTimeout: 2.5)
        s.subscribe(0, "s1")
        s.token(1)
        s.token(2)
        s.token(3.5)
        s.advance(5.999999)
        s.advance(6)
        s.token(7)
        s.finish()
        #expect(
            s.lines == [
                "1 found s1 /chat:hello", "6 lost s1 /chat:hello", "7 found s1 /chat:hello", "9.5 lost s1 /chat:hello",
            ])
    }

    @Test func lostFiresAtItsExactTimeWithoutAnyLaterInput() {
        var s = S()
        s.subscribe(0, "s1")
        s.token(1)
        s.advance(10.999999)
        #expect(s.lines == ["1 found s1 /chat:hello"])
        s.advance(100)
        #expect(s.lines == ["1 found s1 /chat:hello", "11 lost s1 /chat:hello"])
    }

    // ENGINE-F3
    @Test func bluetoothOffLosesBLEOnlyMessagesAtThatInstant() {
        var s = S()
        s.subscribe(0, "s1")
        s.token(1)
        s.state(4, StateChange(bluetoothPowerOn: false))
        s.finish()
        #expect(s.lines == ["1 found s1 /chat:hello", "4 bluetoothPowerError hasError", "4 lost s1 /chat:hello"])
    }

    @Test func messageStillHeardOnAudioSurvivesBluetoothOff() {
        var s = S()
        s.subscribe(0, "s1")
        s.token(1, S.tokenA, medium: .audio)
        s.token(3, S.tokenA, medium: .ble)
        s.state(4, StateChange(bluetoothPowerOn: false))
        s.finish()
        #expect(s.lines == ["1 found s1 /chat:hello", "4 bluetoothPowerError hasError", "11 lost s1 /chat:hello"])
    }

    @Test func remainingEvidenceAlreadyTimedOutIsLostAtTheInstant() {
        var s = S()
        s.subscribe(0, "s1")
        s.token(1, S.tokenA, medium: .audio)
        s.token(10, S.tokenA, medium: .ble)
        s.state(11.5, StateChange(bluetoothPowerOn: false))
        s.finish()
        #expect(s.lines == ["1 found s1 /chat:hello", "11.5 bluetoothPowerError hasError", "11.5 lost s1 /chat:hello"])
    }

    // ENGINE-F4
    @Test func afterPermissionReturnsFoundOnlyOnANewSighting() {
        var s = S()
        s.subscribe(0, "s1")
        s.token(1)
        s.state(2, StateChange(nearbyPermission: .denied))
        s.state(3, StateChange(nearbyPermission: .granted))
        s.advance(8)
        s.token(9)
        s.finish()
        #expect(
            s.lines == [
                "1 found s1 /chat:hello", "2 permissionChanged denied", "2 lost s1 /chat:hello",
                "3 permissionChanged granted", "9 found s1 /chat:hello", "19 lost s1 /chat:hello",
            ])
    }

    // ENGINE-F5
    @Test func releaseFiresNoCallbackOfThatSubscription() {
        var s = S()
        s.subscribe(0, "s1")
        s.subscribe(0, "s2")
        s.token(1)
        s.at(2, .unsubscribe(id: "s1"))
        s.token(3)
        s.finish()
        #expect(s.lines == ["1 found s1 /chat:hello", "1 found s2 /chat:hello", "13 lost s2 /chat:hello"])
    }

    // ENGINE-F6
    @Test func ttlExpiryLosesFoundMessagesThenExpires() {
        var s = S()
        s.subscribe(0, "s1", Self.chat(ttl: .micros(20_000_000)))
        s.token(15)
        s.token(20)
        s.token(21)
        s.finish()
        #expect(s.lines == ["15 found s1 /chat:hello", "20 lost s1 /chat:hello", "20 subscriptionExpired s1"])
    }

    @Test func defaultTTLIsThreeHundredSeconds() {
        var s = S()
        s.subscribe(0, "s1")
        s.subscribe(0, "forever", Self.chat(ttl: .infinite))
        s.advance(299.999999)
        s.advance(300)
        s.token(400, S.tokenA2)
        s.finish()
        #expect(
            s.lines == ["300 subscriptionExpired s1", "400 found forever /chat:hello", "410 lost forever /chat:hello"])
    }

    // ENGINE-F7
    @Test func stoppingNearbyExpiresEverySubscriptionAndPublication() {
        var s = S()
        s.subscribe(0, "s1")
        s.at(0, .publish(id: "p1", PublicationParams(message: S.text("", "chat", "mine"))))
        s.token(1)
        s.at(2, .stopNearby)
        s.token(3)
        s.finish()
        #expect(
            s.lines == [
                "1 found s1 /chat:hello", "2 lost s1 /chat:hello", "2 subscriptionExpired s1",
                "2 publicationExpired p1",
            ])
    }

    // ENGINE-F8
    @Test func overlappingSubscriptionsEachGetTheirOwnEvents() {
        var s = S()
        s.subscribe(0, "a")
        s.token(1)
        s.subscribe(5, "b", Self.chat(ttl: .micros(10_000_000)))
        s.token(6)
        s.token(14)
        s.finish()
        #expect(
            s.lines == [
                "1 found a /chat:hello", "6 found b /chat:hello", "15 lost b /chat:hello",
                "15 subscriptionExpired b", "24 lost a /chat:hello",
            ])
    }

    // ENGINE-F9
    @Test func advancingToAnEndLeavesMessagesFound() {
        var s = S()
        s.subscribe(0, "s1")
        s.token(1)
        s.advance(5)
        #expect(s.lines == ["1 found s1 /chat:hello"])
        #expect(s.engine.foundCount == 1)
    }

    @Test func finishEndsEveryFoundWithItsLost() {
        var s = S()
        s.subscribe(0, "s1", Self.chat(ttl: .micros(12_000_000)))
        s.subscribe(0, "s2", Self.chat(ttl: .infinite))
        s.token(1)
        s.token(5, S.tokenB)
        s.finish()
        #expect(
            s.lines == [
                "1 found s1 /chat:hello", "1 found s2 /chat:hello", "5 found s1 /chat:world", "5 found s2 /chat:world",
                "11 lost s1 /chat:hello", "11 lost s2 /chat:hello", "12 lost s1 /chat:world",
                "12 subscriptionExpired s1", "15 lost s2 /chat:world",
            ])
        #expect(s.engine.foundCount == 0)
    }

    // ENGINE-P1
    @Test func publicationExpiresAtItsTTLAndUnpublishIsSilent() {
        var s = S()
        s.at(
            0,
            .publish(
                id: "p1",
                PublicationParams(message: S.text("", "chat", "a"), strategy: Strategy(ttl: .micros(60_000_000)))))
        s.at(0, .publish(id: "p2", PublicationParams(message: S.text("", "chat", "b"))))
        s.at(10, .unpublish(id: "p2"))
        s.advance(1000)
        #expect(s.lines == ["60 publicationExpired p1"])
    }

    @Test func infinitePublicationTTLIsRefused() {
        var s = S()
        #expect(throws: EngineInputError.self) {
            _ = try s.engine.perform(
                .publish(id: "p", PublicationParams(message: S.text("", "t", "x"), strategy: Strategy(ttl: .infinite))),
                at: 0)
        }
    }

    // ENGINE-P2
    @Test func ownPublicationIsNotFoundByOwnSubscription() {
        var s = S()
        s.subscribe(0, "s1")
        s.at(0, .publish(id: "p1", PublicationParams(message: S.text("", "chat", "mine"))))
        s.advance(100)
        #expect(s.lines == [])
    }

    // ENGINE-H1: the handler is first called when the user grants or denies (GNS iOS Publish and subscribe).
    @Test func permissionChangedFiresOnEveryChangeTheFirstAnswerEitherWay() {
        var st = DeviceState()
        st.nearbyPermission = .notDetermined
        var s = S(state: st)
        s.state(1, StateChange(nearbyPermission: .denied))
        s.state(2, StateChange(nearbyPermission: .granted))
        s.state(3, StateChange(nearbyPermission: .granted))
        s.state(4, StateChange(nearbyPermission: .notDetermined))
        #expect(s.lines == ["1 permissionChanged denied", "2 permissionChanged granted", "4 permissionChanged denied"])
    }

    // ENGINE-H2
    @Test func bluetoothPowerErrorFollowsTheErrorState() {
        var s = S()
        s.state(1, StateChange(bluetoothPowerOn: false))
        s.subscribe(2, "s1", Self.chat(mediums: .audio))
        s.at(
            3,
            .publish(id: "p1", PublicationParams(message: S.text("", "chat", "x"), strategy: Strategy(mediums: .ble))))
        s.state(4, StateChange(bluetoothPowerOn: true))
        s.state(5, StateChange(bluetoothPowerOn: false))
        s.at(6, .unpublish(id: "p1"))
        #expect(
            s.lines == [
                "3 bluetoothPowerError hasError", "4 bluetoothPowerError clear",
                "5 bluetoothPowerError hasError", "6 bluetoothPowerError clear",
            ])
    }

    @Test func backgroundWithoutAllowanceClearsTheBluetoothError() {
        var st = DeviceState()
        st.bluetoothPowerOn = false
        var s = S(state: st)
        s.subscribe(0, "s1")
        s.state(1, StateChange(appState: .background))
        s.state(2, StateChange(appState: .foreground))
        #expect(
            s.lines == [
                "0 bluetoothPowerError hasError", "1 bluetoothPowerError clear", "2 bluetoothPowerError hasError",
            ])
    }

    // ENGINE-H3
    @Test func bluetoothPermissionErrorOnlyWhenDenied() {
        var s = S()
        s.subscribe(0, "s1")
        s.state(1, StateChange(bluetoothPermission: .notDetermined))
        s.state(2, StateChange(bluetoothPermission: .denied))
        s.at(3, .unsubscribe(id: "s1"))
        #expect(s.lines == ["2 bluetoothPermissionError hasError", "3 bluetoothPermissionError clear"])
    }

    // ENGINE-H4
    @Test func microphoneErrorNeedsAudioInUseInTheForeground() {
        var s = S()
        s.subscribe(0, "bleOnly", Self.chat(mediums: .ble))
        s.state(1, StateChange(microphonePermission: .denied))
        s.subscribe(2, "s1")
        s.state(3, StateChange(appState: .background))
        #expect(s.lines == ["2 microphonePermissionError hasError", "3 microphonePermissionError clear"])
    }

    // ENGINE-H5
    @Test func initialStateGivesNoCallbacks() {
        var st = DeviceState()
        st.nearbyPermission = .denied
        st.bluetoothPowerOn = false
        st.microphonePermission = .denied
        var s = S(state: st)
        s.advance(100)
        s.subscribe(101, "s1")
        // ENGINE-D4: only Nearby's alert, for the subscription made while denied; with Nearby denied
        // no error state exists.
        #expect(s.lines == ["101 permissionAlert s1"])
    }

    @Test func firstSubscriptionWithBluetoothOffReportsTheError() {
        var st = DeviceState()
        st.bluetoothPowerOn = false
        var s = S(state: st)
        s.advance(5)
        #expect(s.lines == [])
        s.subscribe(6, "s1", Self.chat(mediums: .ble))
        #expect(s.lines == ["6 bluetoothPowerError hasError"])
    }

    // ENGINE-V1 (engine level; file level in ScenarioFileTests)
    @Test func engineRefusesReusedIdsAndUnknownUnsubscribe() {
        var s = S()
        s.subscribe(0, "s1")
        #expect(throws: EngineInputError.self) {
            _ = try s.engine.perform(.subscribe(id: "s1", SubscriptionParams()), at: 1)
        }
        #expect(throws: EngineInputError.self) { _ = try s.engine.perform(.unsubscribe(id: "nope"), at: 1) }
        #expect(throws: EngineInputError.self) {
            _ = try s.engine.perform(
                .publish(
                    id: "p",
                    PublicationParams(
                        message: Message(namespace: "", type: String(repeating: "t", count: 33), content: []))), at: 1)
        }
        #expect(s.engine.liveSubscriptions == ["s1"])
    }

    // ENGINE-R3
    @Test func subscriptionWithoutATypeReceivesEveryTypeOfItsNamespace() {
        // A beacon subscription receives every message of those beacons (GNS iOS Get beacon messages).
        let registry = Registry(beacons: [
            .init(
                advertisedID: SightingIdentity(.eddystoneUID, S.uid),
                attachments: [
                    S.text("proj", "door", "front"), S.text("proj", "room", "hall"), S.text("x", "door", "y"),
                ])
        ])
        var s = S(registry: registry)
        s.subscribe(0, "all", SubscriptionParams(deviceTypes: .bleBeacons, messageNamespace: "proj"))
        s.see(1, .eddystoneUID, S.uid)
        s.finish()
        #expect(
            s.lines == [
                "1 found all proj/door:front", "1 found all proj/room:hall", "11 lost all proj/door:front",
                "11 lost all proj/room:hall",
            ])
    }

    // ENGINE-R4
    @Test func canonicallyEquivalentTypesAreDifferentMessages() {
        let pre = "caf\u{E9}", dec = "cafe\u{301}"
        #expect(pre == dec)  // Swift's String equality merges them; the engine must not.
        let registry = Registry(publications: [
            .init(id: "a", message: S.text("", pre, "x"), tokens: [.init(token: S.tokenA)]),
            .init(id: "b", message: S.text("", dec, "x"), tokens: [.init(token: S.tokenB)]),
        ])
        var s = S(registry: registry)
        s.subscribe(0, "s1", SubscriptionParams(type: pre))
        s.token(1, S.tokenA)
        s.token(2, S.tokenB)
        s.finish()
        #expect(s.lines == ["1 found s1 /\(pre):x", "11 lost s1 /\(pre):x"])
        #expect(s.lines.allSatisfy { !$0.utf8.elementsEqual("11 lost s1 /\(dec):x".utf8) })
    }

    // ENGINE-R2, ENGINE-R4
    @Test func registryMessageEqualToAReservedMessageIsFoundOnce() {
        let reserved = Message(namespace: Message.reservedNamespace, type: Message.eddystoneUIDType, content: S.uid)
        let registry = Registry(
            publications: [.init(id: "twin", message: reserved, tokens: [.init(token: S.tokenA)])],
            beacons: [.init(advertisedID: SightingIdentity(.eddystoneUID, S.uid), attachments: [reserved])])
        var s = S(registry: registry)
        s.subscribe(
            0, "uids",
            SubscriptionParams(
                deviceTypes: [.nearbyDevices, .bleBeacons], messageNamespace: Message.reservedNamespace,
                type: Message.eddystoneUIDType))
        s.see(1, .eddystoneUID, S.uid)
        s.token(4)
        s.finish()
        // EngineScript renders content as text when it is UTF-8, as these 16 bytes are.
        let text = "__reserved_namespace/__eddystone_uid:" + String(decoding: S.uid, as: UTF8.self)
        #expect(s.lines == ["1 found uids \(text)", "14 lost uids \(text)"])
    }

    // ENGINE-A6
    @Test func lowPowerBeaconScanCountsOnlyInsideItsWindows() {
        var s = S(lowPowerScan: LowPowerScan(windowMicros: 1_000_000, intervalMicros: 10_000_000))
        let low = SubscriptionParams(
            deviceTypes: .bleBeacons, messageNamespace: "proj", type: "door",
            beaconStrategy: BeaconStrategy(includeIBeacons: false))
        var high = low
        high.beaconStrategy.lowPowerPreferred = false
        s.subscribe(2, "low", low)
        s.subscribe(2, "high", high)
        s.see(3, .eddystoneUID, S.uid)  // 1 s after the low one's start: past its first window
        s.see(12.5, .eddystoneUID, S.uid)  // inside its second window, [12, 13)
        s.finish()
        #expect(
            s.lines == [
                "3 found high proj/door:front", "12.5 found low proj/door:front",
                "22.5 lost high proj/door:front", "22.5 lost low proj/door:front",
            ])
    }

    @Test func withoutRangingEveryBeaconSubscriptionIsLowPower() {
        var state = DeviceState()
        state.locationPermission = .denied
        var s = S(state: state, lowPowerScan: LowPowerScan(windowMicros: 1_000_000, intervalMicros: 10_000_000))
        var p = SubscriptionParams(deviceTypes: .bleBeacons, messageNamespace: "proj", type: "door")
        p.beaconStrategy.lowPowerPreferred = false
        s.subscribe(0, "s1", p)
        s.see(5, .eddystoneUID, S.uid)
        s.see(10.25, .eddystoneUID, S.uid)
        s.finish()
        #expect(s.lines == ["10.25 found s1 proj/door:front", "20.25 lost s1 proj/door:front"])
    }

    // ENGINE-A4
    @Test func iBeaconRangingInTheBackgroundNeedsAlwaysLocation() {
        var state = DeviceState()
        state.locationPermission = .whenInUse
        var s = S(state: state)
        s.subscribe(
            0, "s1",
            SubscriptionParams(
                deviceTypes: .bleBeacons, messageNamespace: "proj", type: "door",
                beaconStrategy: BeaconStrategy(allowInBackground: true)))
        s.see(1, .iBeacon, S.iBeaconID)
        s.state(2, StateChange(appState: .background))
        s.see(3, .iBeacon, S.iBeaconID)
        s.state(4, StateChange(locationPermission: .always))
        s.see(5, .iBeacon, S.iBeaconID)
        s.finish()
        #expect(
            s.lines == [
                "1 found s1 proj/door:back", "2 lost s1 proj/door:back", "5 found s1 proj/door:back",
                "15 lost s1 proj/door:back",
            ])
    }

    // ENGINE-D1 to ENGINE-D4
    @Test func dialogShowsOnceUntilAnsweredThenAlertsAfterADenial() {
        var state = DeviceState()
        state.nearbyPermission = .notDetermined
        var s = S(state: state)
        s.subscribe(0, "s1", SubscriptionParams(type: "chat", permissionRequestHandler: true))
        s.at(1, .publish(id: "p1", PublicationParams(message: S.text("", "chat", "me"))))
        s.token(2)
        s.at(3, .answerPermission(granted: false))
        s.subscribe(4, "s2")
        s.at(5, .publish(id: "p2", PublicationParams(message: S.text("", "chat", "me"))))
        #expect(
            s.lines == [
                "0 permissionRequest s1 custom", "3 permissionChanged denied", "4 permissionAlert s2",
                "5 permissionAlert p2",
            ])
        #expect(throws: EngineInputError.self) { _ = try s.engine.perform(.answerPermission(granted: true), at: 6) }
    }

    @Test func settingThePermissionElsewhereClosesTheDialog() {
        var state = DeviceState()
        state.nearbyPermission = .notDetermined
        var s = S(state: state)
        s.subscribe(0, "s1")
        s.state(1, StateChange(nearbyPermission: .granted))
        #expect(!s.engine.isPermissionDialogShowing)
        s.state(2, StateChange(nearbyPermission: .notDetermined))
        s.subscribe(3, "s2")
        #expect(
            s.lines == [
                "0 permissionRequest s1 nearby", "1 permissionChanged granted", "2 permissionChanged denied",
                "3 permissionRequest s2 nearby",
            ])
    }

    // ENGINE-L1 to ENGINE-L3
    @Test func terminateEndsEverythingSilentlyAndLaunchRestoresNothing() {
        var s = S()
        s.subscribe(0, "s1")
        s.token(1)
        s.state(2, StateChange(bluetoothPowerOn: false))
        s.at(3, .terminate)
        s.token(4)
        s.at(5, .launch)
        s.state(6, StateChange(bluetoothPowerOn: true))
        s.subscribe(7, "s1")
        s.token(8)
        s.finish()
        // BLE off at 2 loses the message and raises the error; terminate clears both silently.
        #expect(
            s.lines == [
                "1 found s1 /chat:hello", "2 bluetoothPowerError hasError", "2 lost s1 /chat:hello",
                "8 found s1 /chat:hello", "18 lost s1 /chat:hello",
            ])
        #expect(throws: EngineInputError.self) { _ = try s.engine.perform(.launch, at: 20) }
    }

    @Test func idIsFreeAtTheInstantItsSubscriptionExpires() {
        var s = S()
        s.subscribe(0, "s1", SubscriptionParams(type: "chat", strategy: Strategy(ttl: .micros(2_000_000))))
        s.subscribe(2, "s1")
        s.token(3)
        s.finish()
        #expect(s.lines == ["2 subscriptionExpired s1", "3 found s1 /chat:hello", "13 lost s1 /chat:hello"])
    }

    // ENGINE-H2, ENGINE-H4
    @Test func microphoneIsInUseOnlyToScanAudio() {
        var state = DeviceState()
        state.microphonePermission = .denied
        var s = S(state: state)
        s.at(
            0,
            .publish(
                id: "p",
                PublicationParams(
                    message: S.text("", "chat", "me"), strategy: Strategy(mediums: .audio, mode: .broadcast))))
        s.subscribe(1, "beacons", SubscriptionParams(deviceTypes: .bleBeacons))
        s.subscribe(2, "ears", SubscriptionParams(strategy: Strategy(mediums: .audio, mode: .scan)))
        #expect(s.lines == ["2 microphonePermissionError hasError"])
    }

    @Test func beaconScanningInTheBackgroundUsesBluetoothByTheBeaconStrategy() {
        var state = DeviceState()
        state.bluetoothPowerOn = false
        var s = S(state: state)
        s.subscribe(0, "s1", SubscriptionParams(deviceTypes: .bleBeacons, strategy: Strategy(allowInBackground: true)))
        s.state(1, StateChange(appState: .background))
        s.subscribe(
            2, "s2",
            SubscriptionParams(deviceTypes: .bleBeacons, beaconStrategy: BeaconStrategy(allowInBackground: true)))
        #expect(
            s.lines == [
                "0 bluetoothPowerError hasError", "1 bluetoothPowerError clear", "2 bluetoothPowerError hasError",
            ])
    }
}
