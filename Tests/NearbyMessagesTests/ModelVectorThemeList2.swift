import NearbyMessages

/// The themes of found and lost, the handlers, the dialog, the lifecycle and the input limits.
extension ModelVectorTests {
    static func foundAndLost() -> [Spec] {
        let off = StateChange(bluetoothPowerOn: false), on = StateChange(bluetoothPowerOn: true)
        let bg = StateChange(appState: .background), fg = StateChange(appState: .foreground)
        let ttl5 = chatWith { $0.strategy.ttl = ttl(5) }
        return [
            theme(
                "f0-audio-evidence-survives-bluetooth-off",
                "Heard over BLE and audio, Bluetooth off: the audio evidence keeps it found, lost 10 s after the "
                    + "audio sighting.",
                ["F0", "F3", "F2"], ["Medium"], [sub(0), tok(1), tok(2, tokA, .audio), state(3, off)]),
            theme(
                "f0-remaining-evidence-already-timed-out",
                "Bluetooth off forgets the newer BLE evidence; the audio evidence left is older than the timeout: "
                    + "lost at once.",
                ["F0", "F3"], ["Medium", "TimeBoundary"],
                [sub(0), tok(1, tokA, .audio), tok(10.5), state(11.2, off)]),
            theme(
                "f0-ibeacon-evidence-forgotten-with-location",
                "Seen as a UID and an iBeacon, the location denied: the iBeacon evidence is forgotten, the UID's kept.",
                ["F0", "F3", "A4"], ["Permission"],
                [
                    sub(0, "s1", doors), see(1, .iBeacon, iBeaconID), see(2, .eddystoneUID, uid),
                    state(3, StateChange(locationPermission: .denied)),
                ]
            ) { $0.beacons[1].attachments = [front] },
            theme(
                "f1-found-once", "Repeated sightings of one message fire one found, and one lost after the last.",
                ["F1", "F2"], [], [sub(0), tok(1), tok(2), tok(3)]),
            theme(
                "f1-found-again-after-lost", "After its loss the next sighting finds the message again.",
                ["F1", "F2"], [], [sub(0), tok(1), tok(30)]),
            theme(
                "f2-lost-timeout-one-second",
                "With lostTimeoutSeconds 1 the message is lost 1 s after its last sighting.",
                ["F2"], [], [sub(0), tok(1), tok(1.5)]
            ) { $0.lostTimeoutMicros = 1_000_000 },
            theme(
                "f2-lost-timeout-microseconds", "A lost timeout of 2.5 s, to the microsecond.",
                ["F2", "O2"], ["TimeBoundary"], [sub(0), tok(1.000001), tok(3.500001)]
            ) { $0.lostTimeoutMicros = 2_500_000 },
            theme(
                "f3-bluetooth-off-loses-ble", "Bluetooth off: a message seen only over BLE is lost at that instant.",
                ["F3", "A2", "H2"], ["Medium"], [sub(0), tok(1), state(2, off)]),
            theme(
                "f3-permission-revoked-loses-everything",
                "The Nearby permission revoked: every message is lost at that instant.",
                ["F3", "A1", "H1"], ["Permission"],
                [
                    sub(0), sub(0, "s2", doors), tok(1), see(1, .eddystoneUID, uid),
                    state(2, StateChange(nearbyPermission: .denied)),
                ]),
            theme(
                "f3-background-loses-audio", "To the background: an audio-only message is lost at that instant.",
                ["F3", "A3"], ["Lifecycle", "Medium"],
                [sub(0, "s1", chatWith { $0.strategy.allowInBackground = true }), tok(1, tokC, .audio), state(2, bg)]),
            theme(
                "f3-background-without-allowance-loses-ble",
                "To the background without allowInBackground: a BLE message is lost at that instant.",
                ["F3", "A3"], ["Lifecycle"], [sub(0), tok(1), state(2, bg)]),
            theme(
                "f3-microphone-denied-loses-audio", "The microphone permission denied: an audio-only message is lost.",
                ["F3", "A2", "H4"], ["Permission", "Medium"],
                [sub(0), tok(1, tokC, .audio), state(2, StateChange(microphonePermission: .denied))]),
            theme(
                "f3-bluetooth-permission-at-the-instant-of-a-sighting",
                "The Bluetooth permission denied at the instant of a beacon sighting written after it: lost, and "
                    + "the sighting does not count.",
                ["F3", "A2", "O1A", "H3"], ["Permission", "TimeBoundary"],
                [
                    sub(0, "s1", doors), see(1, .eddystoneUID, uid),
                    state(2, StateChange(bluetoothPermission: .denied)), see(2, .eddystoneUID, uid),
                ]),
            theme(
                "f4-bluetooth-back-on-needs-a-new-sighting",
                "Bluetooth back on fires nothing; the message is found again at the next sighting.",
                ["F4", "F3"], ["Medium"], [sub(0), tok(1), state(2, off), state(3, on), tok(5)]),
            theme(
                "f4-sighting-while-off-is-no-evidence-later",
                "A sighting made while Bluetooth was off does not count when it comes back on.",
                ["F4", "A2"], ["Medium"], [sub(0), state(1, off), tok(2), state(3, on)], end: 20),
            theme(
                "f4-foreground-again", "Back in the foreground nothing fires until a new sighting.",
                ["F4", "A3", "F3"], ["Lifecycle"], [sub(0), tok(1), state(2, bg), tok(3), state(4, fg), tok(6)]),
            theme(
                "f4-permission-granted-again", "The Nearby permission granted again: found only at the next sighting.",
                ["F4", "H1"], ["Permission"],
                [
                    sub(0), tok(1), state(2, StateChange(nearbyPermission: .denied)),
                    state(3, StateChange(nearbyPermission: .granted)), tok(4),
                ]),
            theme(
                "f5-unsubscribe-fires-no-lost", "After unsubscribe not even the lost of a found message fires.",
                ["F5"], [], [sub(0), tok(1), act(2, .unsubscribe(id: "s1"))]),
            theme(
                "f5-unsubscribe-expired-fires-nothing",
                "An expired subscription can still be released; it fires nothing.",
                ["F5", "F6", "L3"], [], [sub(0, "s1", ttl5), tok(1), act(6, .unsubscribe(id: "s1"))]),
            theme(
                "f5-unsubscribe-at-the-instant-of-a-sighting",
                "Unsubscribe written before a sighting at one instant: the sighting counts for nothing.",
                ["F5", "O1A"], ["TimeBoundary"], [sub(0), act(2, .unsubscribe(id: "s1")), tok(2)]),
            theme(
                "f6-ttl-loses-then-expires", "At the TTL the found messages are lost, then subscriptionExpired fires.",
                ["F6", "O3"], [], [sub(0, "s1", ttl5), tok(1)]),
            theme(
                "f6-default-ttl-300", "The default TTL is 300 s.", ["F6"], [], [sub(0), tok(295, tokA2)]),
            theme(
                "f6-infinite-ttl-never-expires", "An infinite TTL never expires.",
                ["F6", "F9"], [], [sub(0, "s1", chatWith { $0.strategy.ttl = .infinite }), tok(1000, tokA2)],
                end: 100_000),
            theme(
                "f6-nothing-after-expiry", "After the expiry nothing of the subscription fires.",
                ["F6", "A1"], [], [sub(0, "s1", ttl5), tok(6)]),
            theme(
                "f7-stop-nearby-expires-everything",
                "Stopping Nearby expires every subscription and publication at that instant.",
                ["F7", "P1", "O3"], [], [sub(0), sub(0, "s2", doors), pub(0), tok(1), act(2, .stopNearby)]),
            theme(
                "f7-nothing-after-stop-nearby", "After Nearby was stopped sightings count for nothing.",
                ["F7", "A1"], [], [sub(0), act(1, .stopNearby), tok(2)]),
            theme(
                "f7-stop-nearby-skips-expired",
                "An already expired subscription does not expire again when Nearby is stopped.",
                ["F7", "F6"], [], [sub(0, "s1", ttl5), sub(0, "s2"), act(6, .stopNearby)]),
            theme(
                "f8-each-subscription-its-own-found", "Two subscriptions of one message each get found and lost.",
                ["F8", "F1"], [], [sub(0), sub(0, "s2", chatWith { $0.type = "" }), tok(1)]),
            theme(
                "f8-release-of-one-keeps-the-other", "Releasing one subscription does not affect the other.",
                ["F8", "F5"], [], [sub(0), sub(0, "s2"), tok(1), act(2, .unsubscribe(id: "s1"))]),
            theme(
                "f8-expiry-of-one-keeps-the-other", "One subscription's expiry does not affect the other's found.",
                ["F8", "F6"], [], [sub(0, "s1", ttl5), sub(0, "s2"), tok(1)]),
            theme(
                "f9-without-end-every-found-is-lost", "Without an end the replay runs until every found is lost.",
                ["F9", "F2"], [], [sub(0), sub(0.5, "s2", doors), tok(1), see(2, .eddystoneUID, uid)]),
            theme(
                "f9-with-end-found-stays-found", "With an end the message still found stays found.",
                ["F9"], [], [sub(0), tok(1)], end: 5),
            theme(
                "f9-end-at-the-timeout-instant",
                "An end at the lost timeout's instant fires the lost (timers at the end fire).",
                ["F9", "O2"], ["TimeBoundary"], [sub(0), tok(1)], end: 11),
            theme(
                "f9-end-one-microsecond-before-the-timeout",
                "An end one microsecond before the timeout leaves it found.",
                ["F9", "O2"], ["TimeBoundary"], [sub(0), tok(1)], end: 10.999999),
            theme(
                "f9-expiry-before-the-last-lost-fires",
                "Without an end, a TTL due before the last lost fires; one due after it does not.",
                ["F9", "F6"], [],
                [
                    sub(
                        0, "s1",
                        chatWith {
                            $0.strategy.ttl = ttl(5)
                            $0.type = "none"
                        }),
                    sub(
                        0, "s3",
                        chatWith {
                            $0.strategy.ttl = ttl(50)
                            $0.type = "none"
                        }), sub(0, "s2"), tok(1),
                ]),
        ]
    }

    static func handlers() -> [Spec] {
        let off = StateChange(bluetoothPowerOn: false), on = StateChange(bluetoothPowerOn: true)
        let bg = StateChange(appState: .background)
        let denied = StateChange(nearbyPermission: .denied)
        return [
            theme(
                "p1-publication-expires-at-its-ttl", "A publication expires at publish time plus its TTL.",
                ["P1"], [], [pub(0, ttl: 30)], end: 40),
            theme(
                "p1-unpublish-fires-nothing", "Unpublish fires nothing.", ["P1"], [],
                [pub(0), act(1, .unpublish(id: "p1"))], end: 400),
            theme(
                "p1-default-ttl-300", "A publication's default TTL is 300 s.", ["P1"], [], [pub(0)], end: 400),
            theme(
                "p2-own-publication-never-found",
                "The observer's own publication is not in its registry: its subscription finds only the registry's "
                    + "message.",
                ["P2", "R1"], [], [pub(0), sub(0, "s1", chatWith { $0.type = "" }), tok(1)]),
            theme(
                "p2-own-audio-publication-never-found", "Publishing over audio finds nothing of one's own.",
                ["P2"], ["Medium"],
                [pub(0, mediums: .audio), sub(0), tok(1, [0xEE, 0xEE, 0xEE, 0xEE, 0xEE, 0xEE], .audio)], end: 20),
            theme(
                "p2-own-publication-with-beacon-subscription",
                "A beacon subscription does not find the app's own publication.",
                ["P2", "R2"], [],
                [
                    pub(0), sub(0, "s1", chatWith { $0.deviceTypes = [.nearbyDevices, .bleBeacons] }),
                    see(1, .eddystoneUID, uid),
                ], end: 20),
            theme(
                "h1-settings-denial", "The Nearby permission denied in the settings fires permissionChanged(false).",
                ["H1"], ["Permission"], [sub(0), state(1, denied)]),
            theme(
                "h1-not-determined-to-denied", "Not determined to denied fires permissionChanged(false).",
                ["H1", "D1", "D3"], ["Permission"], [sub(0), state(1, denied)]
            ) { $0.initial.nearbyPermission = .notDetermined },
            theme(
                "h1-same-value-fires-nothing", "Setting the permission to its value fires nothing.",
                ["H1"], ["Permission"], [sub(0), state(1, StateChange(nearbyPermission: .granted))], end: 2),
            theme(
                "h1-change-while-terminated-fires-nothing",
                "A permission change while the app is terminated fires nothing, nor does the launch after it.",
                ["H1", "H5", "L1", "L2"], ["Permission", "Lifecycle"],
                [act(0, .terminate), state(1, denied), act(2, .launch), sub(3)]),
            theme(
                "h2-bluetooth-off-with-a-subscription",
                "Bluetooth off while a subscription uses BLE: error set, and cleared when on.",
                ["H2"], ["Medium"], [sub(0), state(1, off), state(2, on)]),
            theme(
                "h2-bluetooth-off-without-use", "Bluetooth off while nothing uses BLE fires nothing.",
                ["H2", "H5"], ["Medium"], [state(1, off), sub(2, "s1", chatWith { $0.strategy.mediums = .audio })],
                end: 3),
            theme(
                "h2-unsubscribe-clears-the-error",
                "Releasing the only BLE subscription clears the Bluetooth power error.",
                ["H2", "F5"], ["Medium"], [sub(0), state(1, off), act(2, .unsubscribe(id: "s1"))]),
            theme(
                "h2-background-publication-without-allowance-not-in-use",
                "A BLE publication in the background without allowInBackground does not use BLE: the error clears.",
                ["H2", "A3"], ["Medium", "Lifecycle"], [pub(0, mediums: .ble), state(1, off), state(2, bg)]),
            theme(
                "h2-background-beacon-scan-in-use",
                "A beacon subscription allowed in the background keeps BLE in use there.",
                ["H2", "A3"], ["Medium", "Lifecycle"],
                [sub(0, "s1", doorsWith { $0.beaconStrategy.allowInBackground = true }), state(1, bg), state(2, off)]),
            theme(
                "h2-broadcast-only-subscription-uses-ble",
                "A broadcast-only subscription for nearby devices still uses BLE.",
                ["H2", "A5"], ["Medium"], [sub(0, "s1", chatWith { $0.strategy.mode = .broadcast }), state(1, off)]),
            theme(
                "h2-permission-denied-clears-the-error",
                "The error needs the Nearby permission granted: denying it clears the Bluetooth power error.",
                ["H2", "H1"], ["Medium", "Permission"], [sub(0), state(1, off), state(2, denied)]),
            theme(
                "h3-bluetooth-permission-denied",
                "The Bluetooth permission denied while BLE is in use sets the error; granted clears it.",
                ["H3"], ["Permission"],
                [
                    sub(0), state(1, StateChange(bluetoothPermission: .denied)),
                    state(2, StateChange(bluetoothPermission: .granted)),
                ]),
            theme(
                "h3-not-determined-is-no-error", "A Bluetooth permission not determined is not an error.",
                ["H3"], ["Permission"], [sub(0), state(1, StateChange(bluetoothPermission: .notDetermined))], end: 2),
            theme(
                "h3-publication-uses-ble", "A BLE publication uses BLE: the Bluetooth permission error fires.",
                ["H3", "H5"], ["Permission"], [pub(1, mediums: .ble)]
            ) { $0.initial.bluetoothPermission = .denied },
            theme(
                "h4-audio-scan-uses-the-microphone",
                "A subscription scanning audio uses the microphone: the error fires.",
                ["H4", "H5"], ["Permission", "Medium"], [sub(1)]
            ) { $0.initial.microphonePermission = .denied },
            theme(
                "h4-audio-broadcast-does-not", "A publication broadcasting on audio only does not use the microphone.",
                ["H4"], ["Permission", "Medium"], [pub(1, mediums: .audio, mode: .broadcast)], end: 2
            ) { $0.initial.microphonePermission = .denied },
            theme(
                "h4-audio-scan-publication-does", "A publication scanning on audio uses the microphone.",
                ["H4"], ["Permission", "Medium"], [pub(1, mediums: .audio, mode: .scan)]
            ) { $0.initial.microphonePermission = .denied },
            theme(
                "h4-beacon-only-subscription-does-not", "A beacon-only subscription does not use the microphone.",
                ["H4"], ["Permission"], [sub(1, "s1", doors)], end: 2
            ) { $0.initial.microphonePermission = .denied },
            theme(
                "h4-background-clears", "In the background the microphone is not used: the error clears.",
                ["H4", "A3"], ["Permission", "Lifecycle"], [sub(1), state(2, bg)]
            ) { $0.initial.microphonePermission = .denied },
            theme(
                "h5-initial-state-fires-nothing",
                "The initial state is the baseline: Bluetooth off with nothing in use fires nothing.",
                ["H5"], ["Medium"], [pub(1, mediums: .audio, mode: .broadcast)], end: 5
            ) { $0.initial.bluetoothPowerOn = false },
            theme(
                "h5-first-subscription-with-bluetooth-off",
                "The first subscription made with Bluetooth off sets the error at that instant.",
                ["H5", "H2"], ["Medium"], [sub(3)]
            ) { $0.initial.bluetoothPowerOn = false },
            theme(
                "h5-launch-fires-nothing-by-itself",
                "Bluetooth turned off while terminated: the launch fires nothing; the restored subscription sets "
                    + "the error.",
                ["H5", "L2", "H2"], ["Medium", "Lifecycle"],
                [sub(0), act(1, .terminate), state(2, off), act(3, .launch), sub(4)]),
            theme(
                "d1-nearby-dialog",
                "A subscription made before the Nearby permission is determined shows Nearby's dialog.",
                ["D1"], ["Permission"], [sub(0)], end: 1
            ) { $0.initial.nearbyPermission = .notDetermined },
            theme(
                "d1-app-dialog", "With permissionRequestHandler the app's own dialog is shown (custom).",
                ["D1"], ["Permission"], [sub(0, "s1", chatWith { $0.permissionRequestHandler = true })], end: 1
            ) { $0.initial.nearbyPermission = .notDetermined },
            theme(
                "d1-one-dialog-at-a-time", "While the dialog shows, later subscriptions and publications show nothing.",
                ["D1"], ["Permission"], [sub(0), sub(1, "s2"), pub(2)], end: 3
            ) { $0.initial.nearbyPermission = .notDetermined },
            theme(
                "d1-publication-shows-the-dialog", "A publication shows the dialog too, named by its id.",
                ["D1"], ["Permission"], [pub(0, handler: true)], end: 1
            ) { $0.initial.nearbyPermission = .notDetermined },
            theme(
                "d2-nothing-counts-before-the-answer",
                "Before the answer nothing counts; after granted the next sighting finds.",
                ["D2", "D3", "A1"], ["Permission"], [sub(0), tok(1), act(2, .answerPermission(granted: true)), tok(3)]
            ) { $0.initial.nearbyPermission = .notDetermined },
            theme(
                "d2-denied-answer-counts-nothing", "Answered denied: nothing counts.",
                ["D2", "D3"], ["Permission"], [sub(0), act(2, .answerPermission(granted: false)), tok(3)]
            ) { $0.initial.nearbyPermission = .notDetermined },
            theme(
                "d3-settings-close-the-dialog",
                "A settings change that determines the permission closes the dialog: the next subscription shows none.",
                ["D3", "H1"], ["Permission"],
                [sub(0), state(1, StateChange(nearbyPermission: .granted)), sub(2, "s2"), tok(3)]
            ) { $0.initial.nearbyPermission = .notDetermined },
            theme(
                "d3-not-determined-again-shows-it-again",
                "Back to not determined, the next subscription shows the dialog again.",
                ["D3", "D1", "H1"], ["Permission"],
                [
                    sub(0), act(1, .answerPermission(granted: true)),
                    state(2, StateChange(nearbyPermission: .notDetermined)), sub(3, "s2"),
                ], end: 4
            ) { $0.initial.nearbyPermission = .notDetermined },
            refusal(
                "d3-answer-after-the-settings-closed-it-refused",
                "An answer after a settings change closed the dialog is refused: no dialog shows.",
                ["D3", "V1"], ["Permission"],
                [sub(0), state(1, StateChange(nearbyPermission: .denied)), act(2, .answerPermission(granted: true))],
                path: "$.events[2].permissionAnswer", reason: "no consent dialog"
            ) { $0.initial.nearbyPermission = .notDetermined },
            theme(
                "d4-alert-for-a-subscription", "A subscription made while the permission is denied shows the alert.",
                ["D4"], ["Permission"], [sub(0)], end: 1
            ) { $0.initial.nearbyPermission = .denied },
            theme(
                "d4-alert-for-a-publication", "A publication made while the permission is denied shows the alert.",
                ["D4"], ["Permission"], [pub(0)], end: 1
            ) { $0.initial.nearbyPermission = .denied },
            theme(
                "d4-alert-each-time", "Each later subscription shows the alert again.",
                ["D4", "D3"], ["Permission"],
                [sub(0), act(1, .answerPermission(granted: false)), sub(2, "s2"), sub(3, "s3")], end: 4
            ) { $0.initial.nearbyPermission = .notDetermined },
        ]
    }

    static func lifecycle() -> [Spec] {
        [
            theme(
                "l1-terminate-fires-nothing", "Terminate ends everything without a lost or an expiry.",
                ["L1"], ["Lifecycle"], [sub(0), pub(0, ttl: 5), tok(1), act(2, .terminate)]),
            theme(
                "l1-terminate-closes-the-dialog",
                "Terminate closes the dialog: after the launch a subscription shows it again.",
                ["L1", "L2", "D1"], ["Lifecycle", "Permission"], [sub(0), act(1, .terminate), act(2, .launch), sub(3)],
                end: 4
            ) { $0.initial.nearbyPermission = .notDetermined },
            theme(
                "l1-state-change-while-terminated",
                "State changes are accepted while terminated; no handler fires and no sighting counts.",
                ["L1", "H5"], ["Lifecycle", "Medium"],
                [sub(0), act(1, .terminate), state(2, StateChange(bluetoothPowerOn: false)), tok(3)], end: 5),
            theme(
                "l2-launch-and-restore", "After a launch the app restores its subscription, which finds again.",
                ["L2", "L3", "F1"], ["Lifecycle"],
                [sub(0), tok(1), act(2, .terminate), act(3, .launch), sub(3), tok(4)]),
            theme(
                "l2-launch-with-nothing", "A launch alone subscribes nothing: sightings count for nothing.",
                ["L2", "A1"], ["Lifecycle"], [sub(0), act(1, .terminate), act(2, .launch), tok(3)], end: 5),
            theme(
                "l3-id-reused-after-unsubscribe", "After unsubscribe the id names a new subscription.",
                ["L3", "F5"], [],
                [sub(0), tok(1), act(2, .unsubscribe(id: "s1")), sub(3, "s1", doors), see(4, .eddystoneUID, uid)]),
            theme(
                "l3-id-reused-after-expiry", "After its TTL the id names a new subscription.",
                ["L3", "F6"], [], [sub(0, "s1", chatWith { $0.strategy.ttl = ttl(5) }), sub(6), tok(7)]),
            theme(
                "l3-publication-id-reused", "After unpublish the publication id names a new publication.",
                ["L3", "P1"], [], [pub(0), act(1, .unpublish(id: "p1")), pub(2, ttl: 3)], end: 6),
            theme(
                "l3-subscription-and-publication-ids-apart",
                "A subscription and a publication may share an id: they are named apart.",
                ["L3", "O3"], [], [sub(0, "x", chatWith { $0.strategy.ttl = ttl(4) }), pub(0, "x", ttl: 4)], end: 5),
        ]
    }

    static func limits() -> [Spec] {
        [
            refusal(
                "v1-subscription-id-in-use-refused", "A subscription with the id of a live one is refused at its id.",
                ["V1", "L3"], [], [sub(0), sub(1)], path: "$.events[1].subscribe.id", reason: "is in use"),
            refusal(
                "v1-publication-id-in-use-refused", "A publication with the id of a live one is refused at its id.",
                ["V1", "L3"], [], [pub(0), pub(1)], path: "$.events[1].publish.id", reason: "is in use"),
            refusal(
                "v1-unsubscribe-twice-refused", "Unsubscribing a released subscription is refused.",
                ["V1", "L3"], [], [sub(0), act(1, .unsubscribe(id: "s1")), act(2, .unsubscribe(id: "s1"))],
                path: "$.events[2].unsubscribe", reason: "no subscription"),
            refusal(
                "v1-unsubscribe-after-relaunch-refused",
                "A subscription ended by terminate is not held after the launch.",
                ["V1", "L1", "L3"], ["Lifecycle"],
                [sub(0), act(1, .terminate), act(2, .launch), act(3, .unsubscribe(id: "s1"))],
                path: "$.events[3].unsubscribe", reason: "no subscription"),
            refusal(
                "v1-unpublish-unknown-refused", "Unpublishing an id never published is refused.",
                ["V1"], [], [pub(0), act(1, .unpublish(id: "p2"))], path: "$.events[1].unpublish",
                reason: "no publication"),
            refusal(
                "v1-launch-while-running-refused", "A launch while the app runs is refused.",
                ["V1", "L2"], ["Lifecycle"], [sub(0), act(1, .launch)], path: "$.events[1].launch",
                reason: "already running"),
            refusal(
                "v1-terminate-while-terminated-refused", "A terminate while the app is terminated is refused.",
                ["V1", "L1"], ["Lifecycle"], [act(0, .terminate), act(1, .terminate)], path: "$.events[1].terminate",
                reason: "terminated"),
            refusal(
                "v1-stop-nearby-while-terminated-refused", "Stopping Nearby while the app is terminated is refused.",
                ["V1", "L1", "F7"], ["Lifecycle"], [act(0, .terminate), act(1, .stopNearby)],
                path: "$.events[1].stopNearby",
                reason: "terminated"),
            refusal(
                "v1-answer-twice-refused", "A second answer is refused: the first closed the dialog.",
                ["V1", "D3"], ["Permission"],
                [sub(0), act(1, .answerPermission(granted: true)), act(2, .answerPermission(granted: false))],
                path: "$.events[2].permissionAnswer", reason: "no consent dialog"
            ) { $0.initial.nearbyPermission = .notDetermined },
            refusal(
                "v1-ttl-one-microsecond-over-the-limit-refused", "A TTL of 86,400.000001 s is refused.",
                ["V1", "F6"], ["InputLimit"], [sub(0, "s1", chatWith { $0.strategy.ttl = .micros(86_400_000_001) })],
                path: "$.events[0].subscribe.strategy.ttlSeconds", reason: "out of range"),
            refusal(
                "v1-publication-ttl-over-the-limit-refused", "A publication TTL over 86,400 s is refused.",
                ["V1", "P1"], ["InputLimit"], [pub(0, ttl: 86_401)], path: "$.events[0].publish.strategy.ttlSeconds",
                reason: "out of range"),
            refusal(
                "v1-lost-timeout-over-the-limit-refused", "A lost timeout of 86,400.000001 s is refused.",
                ["V1", "F2"], ["InputLimit"], [sub(0)], path: "$.lostTimeoutSeconds", reason: "out of range"
            ) { $0.lostTimeoutMicros = 86_400_000_001 },
            theme(
                "v1-ttl-at-the-limit-accepted", "A TTL of exactly 86,400 s is accepted and expires then.",
                ["V1", "F6"], ["InputLimit", "TimeBoundary"],
                [sub(0, "s1", chatWith { $0.strategy.ttl = .micros(86_400_000_000) }), tok(86_399.999999, tokA2)]),
            theme(
                "v1-publication-ttl-at-the-limit-accepted", "A publication TTL of exactly 86,400 s is accepted.",
                ["V1", "P1"], ["InputLimit"], [pub(0, ttl: 86_400)], end: 86_400),
            theme(
                "v1-lost-timeout-at-the-limit",
                "A lost timeout of exactly 86,400 s: lost a day after the last sighting.",
                ["V1", "F2"], ["InputLimit"], [sub(0, "s1", chatWith { $0.strategy.ttl = .infinite }), tok(1)]
            ) { $0.lostTimeoutMicros = 86_400_000_000 },
            theme(
                "v1-ttl-one-microsecond", "A TTL of one microsecond is accepted: expired a microsecond later.",
                ["V1", "F6"], ["InputLimit", "TimeBoundary"],
                [sub(0, "s1", chatWith { $0.strategy.ttl = .micros(1) }), tok(0.000001)]),
        ]
    }
}
