import NearbyMessages

/// The themes, rule by rule (see ModelVectorThemes.swift for the registry and the helpers).
extension ModelVectorTests {
    // MARK: ENGINE-O1 to ENGINE-O3

    static func order() -> [Spec] {
        [
            refusal(
                "o1-sighting-before-the-previous-event-refused",
                "A sighting stamped before the event that precedes it is refused: inputs are time-ordered.",
                ["O1", "V1"], ["TimeBoundary"], [sub(5), tok(4)], path: "$.events[1].time", reason: "out of order"),
            refusal(
                "o1-action-one-microsecond-early-refused",
                "A state change one microsecond before the previous event is refused.",
                ["O1", "V1"], ["TimeBoundary"], [sub(1), state(0.999999, StateChange(bluetoothPowerOn: false))],
                path: "$.events[1].time", reason: "out of order"),
            refusal(
                "o1-unsubscribe-before-a-sighting-refused",
                "An unsubscribe stamped before the sighting written above it is refused.",
                ["O1", "V1"], ["TimeBoundary"], [sub(0), tok(3), act(2, .unsubscribe(id: "s1"))],
                path: "$.events[2].time", reason: "out of order"),
            theme(
                "o1a-state-change-before-sighting-at-one-instant",
                "At one instant scenario events apply in file order: Bluetooth goes off before the beacon's "
                    + "sighting, which does not count.",
                ["O1A", "A2", "H2"], ["TimeBoundary", "Medium"],
                [sub(0, "s1", doors), state(2, StateChange(bluetoothPowerOn: false)), see(2, .eddystoneUID, uid)]),
            theme(
                "o1a-sighting-before-state-change-at-one-instant",
                "At one instant in file order: the token's sighting finds the message, then Bluetooth off loses it "
                    + "at that instant.",
                ["O1A", "F3", "O3"], ["TimeBoundary", "Medium"],
                [sub(0), tok(2), state(2, StateChange(bluetoothPowerOn: false))]),
            theme(
                "o1a-subscribe-at-the-instant-of-a-sighting",
                "A subscription made at the instant of a sighting, written first, counts it.",
                ["O1A", "A1", "F1"], ["TimeBoundary"], [sub(2), tok(2)]),
            theme(
                "o1a-sighting-written-before-subscribe-not-counted",
                "A sighting written before the subscription made at the same instant does not count.",
                ["O1A", "A1"], ["TimeBoundary"], [tok(2), sub(2), tok(3)]),
            theme(
                "o2-sighting-exactly-at-timeout-comes-too-late",
                "A sighting exactly one lost timeout after the last is too late: lost and found again at that instant.",
                ["O2", "F2", "F1"], ["TimeBoundary"], [sub(0), tok(1), tok(11)]),
            theme(
                "o2-sighting-one-microsecond-before-timeout-keeps-found",
                "A sighting one microsecond before the timeout keeps the message found; it is lost a timeout later.",
                ["O2", "F2"], ["TimeBoundary"], [sub(0), tok(1), tok(10.999999)]),
            theme(
                "o2-sighting-at-the-instant-of-ttl-expiry",
                "A subscription's TTL ends at the instant of a sighting: the expiry fires first, the sighting does "
                    + "not count.",
                ["O2", "F6", "A1"], ["TimeBoundary"], [sub(0, "s1", chatWith { $0.strategy.ttl = ttl(5) }), tok(5)]),
            theme(
                "o2-id-free-at-the-instant-of-its-expiry",
                "At the instant a subscription expires its id is free: a new subscription by that id is accepted "
                    + "and counts.",
                ["O2", "L3", "F6"], ["TimeBoundary"],
                [sub(0, "s1", chatWith { $0.strategy.ttl = ttl(5) }), sub(5), tok(6)]),
            theme(
                "o2-publication-id-free-at-its-expiry",
                "A publication expiring at the instant of a new publish by its id fires its expiry, and the id is "
                    + "reused.",
                ["O2", "P1", "L3"], ["TimeBoundary"], [pub(0, ttl: 3), pub(3, ttl: 4)], end: 8),
            theme(
                "o2-timeout-and-expiry-at-one-instant",
                "A lost timeout and the TTL falling at one instant form one batch: lost, then subscriptionExpired.",
                ["O2", "O3", "F2", "F6"], ["TimeBoundary"],
                [sub(0, "s1", chatWith { $0.strategy.ttl = ttl(11) }), tok(1)]),
            theme(
                "o3-ids-in-utf8-byte-order",
                "Two subscriptions losing at one instant come in the UTF-8 byte order of their ids.",
                ["O3", "F2", "F8"], [], [sub(0, "s2"), sub(0, "s1"), tok(1)]),
            theme(
                "o3-decomposed-id-before-precomposed",
                "Ids \"cafe\\u0301\" and \"caf\\u00e9\" sort by their UTF-8 bytes (65 before c3), "
                    + "not as equal strings.",
                ["O3", "R4", "F8"], ["Filter"], [sub(0, "caf\u{E9}"), sub(0, "cafe\u{301}"), tok(1)]),
            theme(
                "o3-messages-by-type-then-content",
                "One beacon finding several messages at once: found in namespace, type, then content order.",
                ["O3", "R2", "R3"], ["Filter"], [sub(0, "s1", doorsWith { $0.type = "" }), see(1, .eddystoneUID, uid)]
            ) { s in
                s.beacons[0].attachments = [
                    text("proj", "door", "zz"), text("proj", "door", "aa"), text("proj", "bell", "x"),
                ]
            },
            theme(
                "o3-stop-nearby-lost-then-expired",
                "Stopping Nearby: the subscription's lost, then its expiry, then the publication's.",
                ["O3", "F7", "P1"], [], [sub(0), pub(0), tok(1), act(2, .stopNearby)]),
            theme(
                "o3-permission-handler-before-lost",
                "The Nearby permission revoked: permissionChanged comes before the losses it explains.",
                ["O3", "H1", "F3", "A1"], ["Permission"],
                [sub(0), tok(1), state(2, StateChange(nearbyPermission: .denied))]),
            theme(
                "o3-bluetooth-error-before-lost",
                "Bluetooth off: bluetoothPowerError comes before the loss it explains.",
                ["O3", "H2", "F3"], ["Medium"], [sub(0), tok(1), state(2, StateChange(bluetoothPowerOn: false))]),
        ]
    }

    // MARK: ENGINE-A1 to ENGINE-A6

    static func counting() -> [Spec] {
        let bg = StateChange(appState: .background)
        return [
            theme(
                "a1-sighting-before-subscribe-not-counted",
                "A sighting before the subscription exists counts for nothing; the next one finds.",
                ["A1", "F1", "F4"], [], [tok(1), sub(2), tok(3)]),
            theme(
                "a1-nearby-permission-denied-counts-nothing",
                "With the Nearby permission denied nothing counts (and the subscription shows the alert).",
                ["A1", "D4"], ["Permission"], [sub(0), tok(1), see(2, .eddystoneUID, uid)]
            ) { $0.initial.nearbyPermission = .denied },
            theme(
                "a1-released-subscription-counts-nothing", "After unsubscribe a sighting counts for nothing.",
                ["A1", "F5"], [], [sub(0), act(1, .unsubscribe(id: "s1")), tok(2)]),
            theme(
                "a1-terminated-app-counts-nothing", "While the app is terminated sightings count for nothing.",
                ["A1", "L1"], ["Lifecycle"], [sub(0), act(1, .terminate), tok(2)]),
            theme(
                "a2-audio-only-strategy-ignores-ble",
                "A strategy with audio only ignores the token over BLE and counts it over audio.",
                ["A2", "R1", "F1"], ["Medium"],
                [sub(0, "s1", chatWith { $0.strategy.mediums = .audio }), tok(1), tok(2, tokA, .audio)]),
            theme(
                "a2-bluetooth-off-ignores-ble",
                "Bluetooth off: a BLE token does not count, the same token over audio does.",
                ["A2", "H2", "H5"], ["Medium"], [sub(0), tok(1), tok(2, tokA, .audio)]
            ) { $0.initial.bluetoothPowerOn = false },
            theme(
                "a2-bluetooth-permission-denied-ignores-beacons",
                "The Bluetooth permission denied: beacons do not count.",
                ["A2", "H3", "H5"], ["Permission", "Medium"], [sub(0, "s1", doors), see(1, .eddystoneUID, uid)]
            ) { $0.initial.bluetoothPermission = .denied },
            theme(
                "a2-microphone-denied-ignores-audio",
                "The microphone permission denied: an audio token does not count, a BLE one does.",
                ["A2", "H4", "H5"], ["Permission", "Medium"], [sub(0), tok(1, tokA, .audio), tok(2)]
            ) { $0.initial.microphonePermission = .denied },
            theme(
                "a2-beacons-need-ble-in-the-strategy",
                "A beacon subscription whose strategy names audio only counts no beacon.",
                ["A2", "R2"], ["Medium"],
                [sub(0, "s1", doorsWith { $0.strategy.mediums = .audio }), see(1, .eddystoneUID, uid)]),
            theme(
                "a3-audio-never-counts-in-background",
                "In the background audio never counts, even with allowInBackground; BLE tokens do.",
                ["A3", "A2"], ["Lifecycle", "Medium"],
                [
                    sub(0, "s1", chatWith { $0.strategy.allowInBackground = true }), state(1, bg), tok(2, tokA, .audio),
                    tok(3),
                ]),
            theme(
                "a3-ble-token-in-background-needs-allowance",
                "In the background a BLE token counts only with strategy.allowInBackground.",
                ["A3"], ["Lifecycle"],
                [sub(0), sub(0, "s2", chatWith { $0.strategy.allowInBackground = true }), state(1, bg), tok(2)]),
            theme(
                "a3-beacon-in-background-needs-beacon-allowance",
                "In the background a beacon counts only with beaconStrategy.allowInBackground, not strategy's.",
                ["A3", "R2"], ["Lifecycle"],
                [
                    sub(0, "s1", doorsWith { $0.strategy.allowInBackground = true }),
                    sub(0, "s2", doorsWith { $0.beaconStrategy.allowInBackground = true }), state(1, bg),
                    see(2, .iBeacon, iBeaconID),
                ]),
            theme(
                "a4-nearby-devices-only-ignores-beacons",
                "A subscription for nearby devices only counts no beacon.",
                ["A4"], ["Filter"],
                [sub(0, "s1", doorsWith { $0.deviceTypes = .nearbyDevices }), see(1, .eddystoneUID, uid)]),
            theme(
                "a4-beacons-only-ignores-tokens", "A subscription for BLE beacons only counts no token.",
                ["A4"], ["Filter"], [sub(0, "s1", chatWith { $0.deviceTypes = .bleBeacons }), tok(1)]),
            theme(
                "a4-ibeacon-needs-include-ibeacons",
                "Without includeIBeacons an iBeacon does not count; an Eddystone-UID does.",
                ["A4", "A6", "R2"], ["Filter"],
                [sub(0, "s1", lowPowerDoors), see(0.1, .iBeacon, iBeaconID), see(0.2, .eddystoneUID, uid)]),
            theme(
                "a4-ibeacon-ranged-when-in-use-in-foreground",
                "Location \"when in use\" allows iBeacon ranging in the foreground.",
                ["A4", "R2"], ["Permission"], [sub(0, "s1", doors), see(1, .iBeacon, iBeaconID)]
            ) { $0.initial.locationPermission = .whenInUse },
            theme(
                "a4-ibeacon-not-ranged-when-in-use-in-background",
                "Location \"when in use\" does not allow ranging in the background: the iBeacon is lost "
                    + "and not counted.",
                ["A4", "A3", "F3"], ["Permission", "Lifecycle"],
                [
                    sub(0, "s1", doorsWith { $0.beaconStrategy.allowInBackground = true }), see(1, .iBeacon, iBeaconID),
                    state(2, bg), see(3, .iBeacon, iBeaconID),
                ]
            ) { $0.initial.locationPermission = .whenInUse },
            theme(
                "a4-ibeacon-location-denied",
                "Location denied: no iBeacon ranging, the iBeacon counts for nothing.",
                ["A4"], ["Permission"], [sub(0, "s1", doors), see(1, .iBeacon, iBeaconID)]
            ) { $0.initial.locationPermission = .denied },
            theme(
                "a4-ibeacon-location-not-determined",
                "Location not determined: no iBeacon ranging.",
                ["A4"], ["Permission"], [sub(0, "s1", doors), see(1, .iBeacon, iBeaconID)]
            ) { $0.initial.locationPermission = .notDetermined },
            theme(
                "a5-broadcast-only-counts-no-token", "A broadcast-only subscription counts no token.",
                ["A5"], [], [sub(0, "s1", chatWith { $0.strategy.mode = .broadcast }), tok(1), tok(2, tokA, .audio)]),
            theme(
                "a5-broadcast-only-counts-no-beacon", "A broadcast-only subscription counts no beacon.",
                ["A5"], [], [sub(0, "s1", doorsWith { $0.strategy.mode = .broadcast }), see(1, .eddystoneUID, uid)]),
            theme(
                "a5-scan-only-counts", "A scan-only subscription counts as one that broadcasts and scans.",
                ["A5", "F1"], [], [sub(0, "s1", chatWith { $0.strategy.mode = .scan }), tok(1)]),
            theme(
                "a6-last-microsecond-of-the-window-counts",
                "Low-power scan (512 ms every 5.12 s from the subscription): a UID at the window's last "
                    + "microsecond counts.",
                ["A6", "R2", "F1"], ["TimeBoundary"], [sub(1, "s1", lowPowerDoors), see(1.511999, .eddystoneUID, uid)]),
            theme(
                "a6-end-of-the-window-not-counted", "A UID at the instant the low-power window ends does not count.",
                ["A6"], ["TimeBoundary"], [sub(1, "s1", lowPowerDoors), see(1.512, .eddystoneUID, uid)]),
            theme(
                "a6-next-window-counts", "A UID at the start of the next low-power window counts.",
                ["A6", "F1"], ["TimeBoundary"],
                [sub(1, "s1", lowPowerDoors), see(3, .eddystoneUID, uid), see(6.12, .eddystoneUID, uid)]),
            theme(
                "a6-ibeacon-ranging-scans-at-high-power",
                "With includeIBeacons and ranging allowed the scan is not duty-cycled: a UID between windows counts.",
                ["A6", "A4"], [], [sub(1, "s1", doors), see(3, .eddystoneUID, uid)]),
            theme(
                "a6-low-power-not-preferred-scans-at-high-power",
                "lowPowerPreferred off, ranging allowed: no duty cycle even without includeIBeacons.",
                ["A6"], [],
                [
                    sub(
                        1, "s1",
                        doorsWith {
                            $0.beaconStrategy = BeaconStrategy(includeIBeacons: false, lowPowerPreferred: false)
                        }),
                    see(3, .altBeacon, altID),
                ]),
            theme(
                "a6-no-ranging-duty-cycles-again",
                "lowPowerPreferred off but the location denied: no ranging, so the scan is duty-cycled.",
                ["A6", "A4"], ["Permission"],
                [
                    sub(
                        1, "s1",
                        doorsWith {
                            $0.beaconStrategy = BeaconStrategy(includeIBeacons: false, lowPowerPreferred: false)
                        }),
                    see(3, .altBeacon, altID), see(6.2, .altBeacon, altID),
                ]
            ) { $0.initial.locationPermission = .denied },
            theme(
                "a6-evidence-kept-between-windows",
                "Between windows evidence is kept and the timeout runs: lost 10 s after the last counted sighting.",
                ["A6", "F2", "F3"], ["TimeBoundary"],
                [sub(0, "s1", lowPowerDoors), see(0.1, .eddystoneUID, uid), see(3, .eddystoneUID, uid)]),
            theme(
                "a6-scenario-duty-cycle", "A scenario's lowPowerScan (1 s every 2 s) sets the windows.",
                ["A6"], ["TimeBoundary"],
                [sub(0, "s1", lowPowerDoors), see(1, .eddystoneUID, uid), see(2.5, .eddystoneUID, uid)]
            ) { $0.lowPowerScan = LowPowerScan(windowMicros: 1_000_000, intervalMicros: 2_000_000) },
            theme(
                "a6-eid-duty-cycled", "An Eddystone-EID is scanned in the low-power windows too.",
                ["A6", "R2A"], ["Encrypted", "TimeBoundary"],
                [sub(0, "s1", lowPowerDoors), see(3, .eddystoneEID, eid(3)), see(5.2, .eddystoneEID, eid(5.2))]),
        ]
    }

    // MARK: ENGINE-R1 to ENGINE-R4

    static func standing() -> [Spec] {
        let reservedUID = SubscriptionParams(
            deviceTypes: .bleBeacons, messageNamespace: "__reserved_namespace", type: "__eddystone_uid")
        return [
            theme(
                "r1-token-at-its-until-stands-for-nothing",
                "At its assignment's until (100 s) the old token stands for nothing; the new one stands for the "
                    + "message.",
                ["R1", "F1"], ["TimeBoundary"], [sub(0), tok(100), tok(100, tokA2)]),
            theme(
                "r1-token-one-microsecond-before-until",
                "One microsecond before its assignment ends the token still stands for the message.",
                ["R1", "F1"], ["TimeBoundary"], [sub(0), tok(99.999999)]),
            theme(
                "r1-rotated-token-one-message",
                "The token rotates at 100 s: the message stays found, one found and one lost.",
                ["R1", "R4", "F1", "F2"], [], [sub(0), tok(95), tok(101, tokA2)]),
            theme(
                "r1-publication-interval",
                "A publication stands for its message from 50 s to 60 s only, half-open.",
                ["R1"], ["TimeBoundary"], [sub(0), tok(49.999999, tokD), tok(50, tokD), tok(60, tokD)], end: 60),
            theme(
                "r1-assignment-mediums",
                "A BLE-only token over audio and an audio-only token over BLE stand for nothing.",
                ["R1", "A2"], ["Medium"], [sub(0), tok(1, tokB, .audio), tok(2, tokC), tok(3, tokB)]),
            theme(
                "r1-unregistered-token", "A token the registry does not know stands for nothing.",
                ["R1"], [], [sub(0), tok(1, [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]), tok(2)]),
            theme(
                "r2-eddystone-uid-reserved-message",
                "An Eddystone-UID stands for the reserved __eddystone_uid message of its 16 bytes.",
                ["R2", "R3"], ["Filter"], [sub(0, "s1", reservedUID), see(1, .eddystoneUID, uid)]),
            theme(
                "r2-ibeacon-reserved-message",
                "An iBeacon stands for the reserved __i_beacon_id message of its 20 bytes.",
                ["R2", "R3", "A4"], ["Filter"],
                [
                    sub(
                        0, "s1",
                        SubscriptionParams(
                            deviceTypes: .bleBeacons, messageNamespace: "__reserved_namespace", type: "__i_beacon_id")),
                    see(1, .iBeacon, iBeaconID),
                ]),
            theme(
                "r2-altbeacon-has-no-reserved-message",
                "An AltBeacon stands for its attachments only: a subscription to the reserved namespace finds nothing.",
                ["R2", "R3"], ["Filter"],
                [
                    sub(
                        0, "s1",
                        SubscriptionParams(
                            deviceTypes: .bleBeacons, messageNamespace: "__reserved_namespace")),
                    sub(0, "s2", doors), see(1, .altBeacon, altID),
                ]),
            theme(
                "r2-unregistered-uid-reserved-message-only",
                "A UID the registry does not know still stands for its reserved message, registered or not.",
                ["R2"], ["Filter"],
                [sub(0, "s1", reservedUID), sub(0, "s2", doors), see(1, .eddystoneUID, Array(0x20..<0x30))]),
            theme(
                "r2-beacon-attachments", "A beacon stands for its attachments.",
                ["R2", "F1", "F2"], [], [sub(0, "s1", doors), see(1, .eddystoneUID, uid), see(2, .altBeacon, altID)]),
            theme(
                "r2a-eid-of-the-expected-period", "An EID of the period the beacon's clock should be in resolves.",
                ["R2A", "F1"], ["Encrypted"], [sub(0, "s1", doors), see(20, .eddystoneEID, eid(20))]),
            theme(
                "r2a-eid-at-the-window-edge-resolves",
                "Two periods ahead of the expected one (the window: 1 + ⌈(150 ppm · 20 s + 1 s) / 16 s⌉ = 2) resolves.",
                ["R2A"], ["Encrypted", "TimeBoundary"],
                [sub(0, "s1", doors), see(20, .eddystoneEID, eid(20, offset: 2))]),
            theme(
                "r2a-eid-past-the-window-edge-not-resolved",
                "Three periods ahead of the expected one is past the window: it stands for nothing.",
                ["R2A"], ["Encrypted", "TimeBoundary"],
                [sub(0, "s1", doors), see(20, .eddystoneEID, eid(20, offset: 3))]),
            theme(
                "r2a-eid-behind-the-window-edge",
                "Two periods behind resolves, three behind does not.",
                ["R2A"], ["Encrypted", "TimeBoundary"],
                [
                    sub(0, "s1", doors), see(60, .eddystoneEID, eid(60, offset: -3)),
                    see(61, .eddystoneEID, eid(61, offset: -2)),
                ]),
            theme(
                "r2a-rotated-eid-same-message",
                "The EID rotates every 16 s; the rotated EID stands for the same attachment: one found, one lost.",
                ["R2A", "R4", "F1", "F2"], ["Encrypted"],
                [
                    sub(0, "s1", doors), see(20, .eddystoneEID, eid(20)), see(29, .eddystoneEID, eid(29)),
                    see(36, .eddystoneEID, eid(36)),
                ]),
            theme(
                "r2a-shared-identity-key-both-count",
                "Two registered beacons with one identity key both resolve the EID: both attachments are found.",
                ["R2A", "F1"], ["Encrypted"], [sub(0, "s1", doors), see(20, .eddystoneEID, eid(20))]
            ) { $0.beacons.append(eidBeacon([text("proj", "door", "clone")])) },
            theme(
                "r2a-eid-registered-in-unix-time",
                "A registration time in Unix seconds is placed by the scenario's timeOrigin.",
                ["R2A"], ["Encrypted"], [sub(0, "s1", doors), see(20, .eddystoneEID, eid(120))]
            ) { s in
                s.originUnixMicros = 1_700_000_000_000_000
                s.beacons[3] = eidBeacon(at: .unixMicros(1_700_000_000_000_000 - 100_000_000))
            },
            theme(
                "r2a-eid-clock-wraps",
                "A beacon clock registered 10 s before 2^32 wraps to 0; the EID after the wrap resolves.",
                ["R2A"], ["Encrypted", "FieldBounds"],
                [sub(0, "s1", doors), see(20, .eddystoneEID, eid(20, clock: 0xFFFF_FFF6))]
            ) { $0.beacons[3] = eidBeacon(clock: 0xFFFF_FFF6) },
            theme(
                "r2a-window-grows-with-the-time-since-registration",
                "K = 0, 20,000 s after registration: the window is 1 + ⌈150 ppm · 20,000 s + 1 s⌉ = 5 periods; "
                    + "5 ahead resolves, 6 ahead does not.",
                ["R2A"], ["Encrypted", "TimeBoundary"],
                [
                    sub(0, "s1", doorsWith { $0.strategy.ttl = .infinite }),
                    see(20_000, .eddystoneEID, eid(period: 20_006, k: 0)),
                    see(20_001, .eddystoneEID, eid(period: 20_006, k: 0)),
                ]
            ) { $0.beacons[3] = eidBeacon(k: 0) },
            theme(
                "r2a-clock-rounded-down-before-registration",
                "Half a second before a registration at clock 16 (K = 4) the clock reads 15, period 0: the EID of "
                    + "period −2 (clock 2^32 − 32) is at the window's edge and resolves.",
                ["R2A"], ["Encrypted", "TimeBoundary"],
                [sub(0, "s1", doors), see(99.5, .eddystoneEID, eid(period: -2))]
            ) { $0.beacons[3] = eidBeacon(clock: 16, at: .scenarioMicros(100_000_000)) },
            theme(
                "r2a-unknown-eid-stands-for-nothing", "An EID no registered beacon gives stands for nothing.",
                ["R2A"], ["Encrypted"],
                [sub(0, "s1", doors), see(20, .eddystoneEID, eid(20, key: [UInt8](repeating: 7, count: 16)))]),
            theme(
                "r3-type-narrows", "A subscription's type narrows the namespace to that type.",
                ["R3"], ["Filter"], [sub(0, "s1", doors), see(1, .eddystoneUID, uid)]
            ) { $0.beacons[0].attachments = [front, text("proj", "bell", "ring")] },
            theme(
                "r3-empty-type-every-type", "An empty type receives every type of the namespace.",
                ["R3"], ["Filter"], [sub(0, "s1", doorsWith { $0.type = "" }), see(1, .eddystoneUID, uid)]
            ) { $0.beacons[0].attachments = [front, text("proj", "bell", "ring")] },
            theme(
                "r3-other-namespace-nothing", "A message of another namespace does not reach the subscription.",
                ["R3"], ["Filter"],
                [sub(0, "s1", doorsWith { $0.messageNamespace = "other" }), see(1, .eddystoneUID, uid)]),
            theme(
                "r3a-empty-filter-namespace-is-the-project",
                "With projectNamespace proj, a subscription to namespace \"\" receives proj's messages.",
                ["R3A", "R3"], ["Filter"],
                [sub(0, "s1", doorsWith { $0.messageNamespace = "" }), see(1, .eddystoneUID, uid)]
            ) { $0.projectNamespace = "proj" },
            theme(
                "r3a-empty-registry-namespace-is-the-project",
                "With projectNamespace proj, a registry message in namespace \"\" is proj's, and is shown so.",
                ["R3A", "R3"], ["Filter"], [sub(0, "s1", chatWith { $0.messageNamespace = "proj" }), tok(1)]
            ) { $0.projectNamespace = "proj" },
            theme(
                "r3a-other-namespace-is-not-the-project",
                "With projectNamespace proj, a subscription to \"\" does not receive namespace other.",
                ["R3A", "R3"], ["Filter"],
                [sub(0, "s1", doorsWith { $0.messageNamespace = "" }), see(1, .eddystoneUID, uid)]
            ) { s in
                s.projectNamespace = "proj"
                s.beacons[0].attachments = [text("other", "door", "front")]
            },
            theme(
                "r4-canonically-equivalent-types-differ",
                "Types \"caf\\u00e9\" and \"cafe\\u0301\" are different messages: two founds.",
                ["R4", "R3"], ["Filter"], [sub(0, "s1", doorsWith { $0.type = "" }), see(1, .eddystoneUID, uid)]
            ) { $0.beacons[0].attachments = [text("proj", "caf\u{E9}", "x"), text("proj", "cafe\u{301}", "x")] },
            theme(
                "r4-one-message-through-two-tokens",
                "Two publications of one message through two tokens are one message: one found, one lost.",
                ["R4", "F1"], [], [sub(0), tok(1), tok(2, tokB)]
            ) { $0.publications[1].message = hello },
            theme(
                "r4-one-message-on-ble-and-audio", "One token over BLE and over audio: one message, one found.",
                ["R4", "F0", "F1"], ["Medium"], [sub(0), tok(1), tok(2, tokA, .audio)]),
            theme(
                "r4-registry-attachment-equal-to-reserved",
                "A UID's attachment equal to its reserved message is that message: one found, one lost.",
                ["R4", "R2"], ["Filter"], [sub(0, "s1", reservedUID), see(1, .eddystoneUID, uid)]
            ) {
                $0.beacons[0].attachments = [
                    Message(namespace: "__reserved_namespace", type: "__eddystone_uid", content: uid)
                ]
            },
            theme(
                "r4-two-beacons-one-message",
                "A UID and an iBeacon carrying the same attachment: one message, one found.",
                ["R4", "F0", "F1"], [], [sub(0, "s1", doors), see(1, .eddystoneUID, uid), see(2, .iBeacon, iBeaconID)]
            ) { $0.beacons[1].attachments = [front] },
        ]
    }
}
