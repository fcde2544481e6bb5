import NearbyMessages
import NearbyModelSupport

/// The generated half of the model vectors: for each behaviour below, cases of the differential
/// generator that show it, each minimized to the fewest inputs and registry entries that keep
/// it, and named after it.
extension ModelVectorTests {
    typealias Event = ReferenceModel.Event

    struct Behaviour {
        var name: String
        /// What the vector shows, as the start of its description.
        var what: String
        var clauses: [String]
        var shows: @Sendable (Event, [Event], ModelScenario) -> Bool
    }

    static func actions(_ s: ModelScenario) -> [(Int64, EngineAction)] {
        s.inputs.compactMap { if case .action(let t, let a) = $0 { (t, a) } else { nil } }
    }

    static func found(
        _ via: SightingIdentity.Kind, _ source: ReferenceModel.Source? = nil
    ) -> @Sendable (Event, [Event], ModelScenario) -> Bool {
        { e, _, _ in e.kind == .found && e.via == via && (source == nil || e.source == source) }
    }

    static let reserved = "__reserved_namespace"

    static var behaviours: [Behaviour] {
        [
            Behaviour(
                name: "f1-found-ble-token",
                what: "A registry publication is found at the first counted BLE sighting of its token",
                clauses: ["ENGINE-F1", "ENGINE-F0", "ENGINE-R1", "ENGINE-A1", "ENGINE-A2"],
                shows: found(.token, .bleToken)),
            Behaviour(
                name: "f1-found-audio-token",
                what: "A registry publication is found at the first counted audio sighting of its token",
                clauses: ["ENGINE-F1", "ENGINE-F0", "ENGINE-R1", "ENGINE-A2", "ENGINE-A3"],
                shows: found(.token, .audioToken)),
            Behaviour(
                name: "r2-found-eddystone-uid", what: "An Eddystone-UID sighting finds what the beacon stands for",
                clauses: ["ENGINE-R2", "ENGINE-F1", "ENGINE-A4", "ENGINE-A6"], shows: found(.eddystoneUID)),
            Behaviour(
                name: "r2-found-ibeacon", what: "An iBeacon sighting, ranged, finds what the beacon stands for",
                clauses: ["ENGINE-R2", "ENGINE-F1", "ENGINE-A4"], shows: found(.iBeacon)),
            Behaviour(
                name: "r2-found-altbeacon",
                what: "An AltBeacon sighting finds the beacon's attachments (it has no reserved type)",
                clauses: ["ENGINE-R2", "ENGINE-F1", "ENGINE-A6"], shows: found(.altBeacon)),
            Behaviour(
                name: "r2a-found-eid",
                what: "An Eddystone-EID sighting resolved to a registered beacon finds its attachments",
                clauses: ["ENGINE-R2A", "ENGINE-F1", "ENGINE-A6"], shows: found(.eddystoneEID)),
            Behaviour(
                name: "r2-reserved-message",
                what: "A beacon's reserved beacon-ID message is found by a subscription to the reserved namespace",
                clauses: ["ENGINE-R2", "ENGINE-R3"],
                shows: { e, _, _ in e.kind == .found && e.message?.namespace == reserved && e.via != .token }),
            Behaviour(
                name: "r4-registry-message-equal-to-reserved",
                what: "A registry message equal to a reserved beacon message is that message: one found",
                clauses: ["ENGINE-R4", "ENGINE-R2"],
                shows: { e, _, s in
                    guard e.kind == .found, let m = e.message, m.namespace == reserved else { return false }
                    let k = ReferenceModel.MessageKey(m)
                    return s.publications.contains { ReferenceModel.MessageKey($0.message) == k }
                        || s.beacons.contains { $0.attachments.contains { ReferenceModel.MessageKey($0) == k } }
                }),
            Behaviour(
                name: "r3a-project-namespace",
                what: "Namespace \"\" is the observer's project namespace, in the filter and the registry alike",
                clauses: ["ENGINE-R3A", "ENGINE-R3"],
                shows: { e, _, s in
                    e.kind == .found && !s.projectNamespace.isEmpty && e.message?.namespace == s.projectNamespace
                }),
            Behaviour(
                name: "o2-lost-and-found-again",
                what: "A message lost by its timeout is found again at the same instant, by a sighting stamped then",
                clauses: ["ENGINE-O2", "ENGINE-F2", "ENGINE-F1", "ENGINE-O3"],
                shows: { e, all, _ in
                    e.kind == .found
                        && all.contains { l in
                            l.kind == .lost && l.cause == .timeout && l.time == e.time && l.id == e.id
                                && l.message == e.message
                        }
                }),
            Behaviour(
                name: "f2-lost-by-timeout", what: "A message is lost one lost timeout after its last counted sighting",
                clauses: ["ENGINE-F2", "ENGINE-O2"], shows: { e, _, _ in e.kind == .lost && e.cause == .timeout }),
            Behaviour(
                name: "f3-lost-by-state-change",
                what: "A state change stops the subscription counting the message's sources: lost at that instant",
                clauses: ["ENGINE-F3"], shows: { e, _, _ in e.kind == .lost && e.cause == .stateChange }),
            Behaviour(
                name: "f6-lost-at-expiry", what: "A subscription's TTL ends: its messages are lost, then it expires",
                clauses: ["ENGINE-F6", "ENGINE-O3"], shows: { e, _, _ in e.kind == .lost && e.cause == .ttl }),
            Behaviour(
                name: "f6-subscription-expired", what: "A subscription expires at subscribe time plus its TTL",
                clauses: ["ENGINE-F6"], shows: { e, _, _ in e.kind == .subscriptionExpired && e.cause == .ttl }),
            Behaviour(
                name: "f7-stop-nearby",
                what: "The user stops Nearby: every subscription and publication expires at that instant",
                clauses: ["ENGINE-F7", "ENGINE-O3"],
                shows: { e, _, _ in e.cause == .stopNearby && (e.kind == .subscriptionExpired || e.kind == .lost) }),
            Behaviour(
                name: "p1-publication-expired", what: "The observer's publication expires at publish time plus its TTL",
                clauses: ["ENGINE-P1"], shows: { e, _, _ in e.kind == .publicationExpired && e.cause == .ttl }),
            Behaviour(
                name: "d1-nearby-dialog",
                what: "A subscription or publication made before the Nearby permission is asked shows Nearby's dialog",
                clauses: ["ENGINE-D1", "ENGINE-D2"],
                shows: { e, _, _ in e.kind == .permissionRequest && e.value == false }),
            Behaviour(
                name: "d1-app-dialog", what: "With permissionRequestHandler the app's own consent dialog is shown",
                clauses: ["ENGINE-D1", "ENGINE-D2"],
                shows: { e, _, _ in e.kind == .permissionRequest && e.value == true }),
            Behaviour(
                name: "d4-alert-after-denial",
                what: "A subscription or publication made while the permission is denied shows Nearby's alert",
                clauses: ["ENGINE-D4"], shows: { e, _, _ in e.kind == .permissionAlert }),
            Behaviour(
                name: "d3-answer",
                what: "The user's answer to the consent dialog sets the permission and fires the permission handler",
                clauses: ["ENGINE-D3", "ENGINE-H1"],
                shows: { e, _, s in
                    e.kind == .permissionChanged
                        && actions(s).contains { t, a in
                            if case .answerPermission = a { t == e.time } else { false }
                        }
                }),
            Behaviour(
                name: "h1-permission-changed",
                what: "A change of the Nearby permission in the settings fires the permission handler",
                clauses: ["ENGINE-H1"],
                shows: { e, _, s in
                    e.kind == .permissionChanged
                        && actions(s).contains { t, a in
                            if case .changeState = a { t == e.time } else { false }
                        }
                }),
            Behaviour(
                name: "h2-bluetooth-power-error",
                what: "Bluetooth off while BLE is in use sets the Bluetooth power error",
                clauses: ["ENGINE-H2", "ENGINE-H5"],
                shows: { e, _, _ in e.kind == .bluetoothPowerError && e.value == true }),
            Behaviour(
                name: "h2-bluetooth-power-error-cleared",
                what: "The Bluetooth power error clears when BLE is no longer in use or Bluetooth is on",
                clauses: ["ENGINE-H2"], shows: { e, _, _ in e.kind == .bluetoothPowerError && e.value == false }),
            Behaviour(
                name: "h3-bluetooth-permission-error",
                what: "The Bluetooth permission denied while BLE is in use sets the Bluetooth permission error",
                clauses: ["ENGINE-H3", "ENGINE-H5"],
                shows: { e, _, _ in e.kind == .bluetoothPermissionError && e.value == true }),
            Behaviour(
                name: "h3-bluetooth-permission-error-cleared", what: "The Bluetooth permission error clears",
                clauses: ["ENGINE-H3"], shows: { e, _, _ in e.kind == .bluetoothPermissionError && e.value == false }),
            Behaviour(
                name: "h4-microphone-permission-error",
                what: "The microphone permission denied while audio is scanned sets the microphone error",
                clauses: ["ENGINE-H4", "ENGINE-H5"],
                shows: { e, _, _ in e.kind == .microphonePermissionError && e.value == true }),
            Behaviour(
                name: "h4-microphone-permission-error-cleared", what: "The microphone permission error clears",
                clauses: ["ENGINE-H4"], shows: { e, _, _ in e.kind == .microphonePermissionError && e.value == false }),
            Behaviour(
                name: "o3-batch-order", what: "Several events at one instant come in the batch order",
                clauses: ["ENGINE-O3"],
                shows: { e, all, _ in
                    Set(all.filter { $0.time == e.time }.map(\.kind)).count >= 3
                }),
            Behaviour(
                name: "f8-overlapping-subscriptions",
                what: "Two subscriptions find the same message, each its own found",
                clauses: ["ENGINE-F8", "ENGINE-F1"],
                shows: { e, all, _ in
                    e.kind == .found
                        && all.contains { o in
                            o.kind == .found && o.message == e.message
                                && o.id.map { Array($0.utf8) } != e.id.map { Array($0.utf8) }
                        }
                }),
            Behaviour(
                name: "l1-found-after-relaunch",
                what: "After a terminate and a launch, a subscription made again finds a message",
                clauses: ["ENGINE-L1", "ENGINE-L2"],
                shows: { e, _, s in
                    e.kind == .found
                        && actions(s).contains { t, a in
                            if case .launch = a { t <= e.time } else { false }
                        }
                }),
            Behaviour(
                name: "l3-id-reused", what: "An id whose subscription ended names a new one, which finds a message",
                clauses: ["ENGINE-L3"],
                shows: { e, _, s in
                    guard e.kind == .found, let id = e.id else { return false }
                    let subs = actions(s).filter { t, a in
                        if case .subscribe(let i, _) = a { t <= e.time && ReferenceModel.same(i, id) } else { false }
                    }
                    return subs.count >= 2
                }),
            Behaviour(
                name: "f9-end-keeps-found", what: "With an end, a message still found at the end stays found",
                clauses: ["ENGINE-F9"],
                shows: { e, all, s in
                    s.end != nil && e.kind == .found
                        && !all.contains { l in
                            l.kind == .lost && l.time >= e.time && l.id == e.id && l.message == e.message
                        }
                }),
        ]
    }

    /// The clauses a minimized scenario shows besides its behaviour's: the rule of the state
    /// change that lost a message, and the input rules every scenario obeys.
    static func extraClauses(_ s: ModelScenario, _ events: [Event]) -> [String] {
        var out: Set<String> = []
        for e in events where e.kind == .lost && e.cause == .stateChange {
            for (t, a) in actions(s) where t == e.time {
                guard case .changeState(let c) = a else { continue }
                if c.nearbyPermission != nil { out.insert("ENGINE-A1") }
                if c.bluetoothPowerOn != nil || c.bluetoothPermission != nil || c.microphonePermission != nil {
                    out.insert("ENGINE-A2")
                }
                if c.appState != nil { out.insert("ENGINE-A3") }
                if c.locationPermission != nil { out.insert("ENGINE-A4") }
            }
        }
        if s.end != nil { out.insert("ENGINE-F9") }
        if events.contains(where: { $0.kind == .found && $0.via == .eddystoneEID }) { out.insert("ENGINE-R2A") }
        return Array(out)
    }

    static func flags(_ s: ModelScenario, _ events: [Event]) -> [String] {
        var out: Set<String> = []
        let acts = actions(s).map(\.1)
        var changes = acts.compactMap { if case .changeState(let c) = $0 { c } else { nil } }
        changes.append(s.initial)
        if changes.contains(where: {
            $0.nearbyPermission != nil || $0.bluetoothPermission != nil || $0.microphonePermission != nil
                || $0.locationPermission != nil
        }) || acts.contains(where: { if case .answerPermission = $0 { true } else { false } })
            || events.contains(where: { $0.kind == .permissionRequest || $0.kind == .permissionAlert })
        {
            out.insert("Permission")
        }
        var strategies: [Strategy] = []
        var filtered = false
        for a in acts {
            switch a {
            case .subscribe(_, let p):
                strategies.append(p.strategy)
                if !p.messageNamespace.isEmpty || !p.type.isEmpty { filtered = true }
            case .publish(_, let p): strategies.append(p.strategy)
            default: break
            }
        }
        if changes.contains(where: { $0.bluetoothPowerOn != nil })
            || strategies.contains(where: { $0.mediums != .default })
            || events.contains(where: { $0.source == .audioToken })
        {
            out.insert("Medium")
        }
        if changes.contains(where: { $0.appState != nil })
            || acts.contains(where: {
                if case .terminate = $0 { true } else if case .launch = $0 { true } else { false }
            })
        {
            out.insert("Lifecycle")
        }
        if filtered || events.contains(where: { $0.message?.namespace == reserved }) { out.insert("Filter") }
        let inputTimes = Set(s.inputs.map(\.time))
        if events.contains(where: { ($0.cause == .timeout || $0.cause == .ttl) && inputTimes.contains($0.time) }) {
            out.insert("TimeBoundary")
        }
        if strategies.contains(where: { $0.ttl == .micros(86_400_000_000) }) || s.lostTimeoutMicros == 86_400_000_000 {
            out.insert("InputLimit")
        }
        if s.inputs.contains(where: {
            if case .sighting(let x, _) = $0 { x.identity.kind == .eddystoneEID } else { false }
        }) {
            out.insert("Encrypted")
        }
        return Array(out)
    }

    /// `count` vectors from the generator's seeds, as evenly over the behaviours as the seeds allow.
    static func generated(count: Int) -> [Spec] {
        let quota = (count + behaviours.count - 1) / behaviours.count
        var made: [String: Int] = [:]
        var seen: Set<String> = []
        var specs: [Spec] = []
        var seed: UInt64 = 0
        while specs.count < count && seed < 6_000 {
            seed += 1
            var g = ScenarioGenerator(seed: seed, fileSafe: true)
            let s = g.make().accepted()
            let events = s.runModel().events
            // The behaviour this case shows that has the fewest vectors so far.
            let candidates = behaviours.filter { b in
                made[b.name, default: 0] < quota && events.contains { b.shows($0, events, s) }
            }
            guard let b = candidates.min(by: { made[$0.name, default: 0] < made[$1.name, default: 0] }) else {
                continue
            }
            let m = minimize(s) { events, s in events.contains { b.shows($0, events, s) } }
            let text = ModelScenarioJSON.scenario(m).text()
            guard seen.insert(text).inserted else { continue }
            let n = made[b.name, default: 0] + 1
            made[b.name] = n
            let mEvents = m.runModel().events
            specs.append(
                Spec(
                    name: b.name + "-" + (n < 10 ? "0" : "") + String(n),
                    description: b.what + " (the generator's seed \(seed), minimized).",
                    clauses: Array(Set(b.clauses + extraClauses(m, mEvents))), flags: flags(m, mEvents), scenario: m))
        }
        return specs.sorted { $0.name < $1.name }
    }
}
