/// Device and app state: which sources count, permission dialogs and the error handlers (ENGINE-A1 to ENGINE-A6,
/// ENGINE-F3, ENGINE-D1, ENGINE-D4, ENGINE-H1 to ENGINE-H5).
extension SubscriptionEngine {
    // MARK: state (ENGINE-A1 to ENGINE-A6, ENGINE-F3, ENGINE-D1, ENGINE-D4, ENGINE-H1 to ENGINE-H5)

    /// What a live subscription with parameters `p` counts in the current state: the sources no
    /// rule stops (`stop(_:counting:)`), and whether its beacon sightings count only in the
    /// low-power scan's windows (ENGINE-A6).
    func countingNow(_ p: SubscriptionParams) -> CountingProfiles.Counting {
        var sources: EvidenceSources = []
        for source in EvidenceSource.allCases where stop(p, counting: source) == nil { sources.insert(source.set) }
        guard sources.contains(.beacon) else { return .init(sources: sources) }
        // ENGINE-A6: iBeacon ranging runs for it when the location allows ranging and it asks for
        // the high-power mode.
        let b = p.beaconStrategy
        let ranging = state.locationPermission.allowsRanging(foreground: state.appState == .foreground)
        return .init(sources: sources, lowPowerBeacons: !(ranging && (b.includeIBeacons || !b.lowPowerPreferred)))
    }

    /// The first rule, in the order of docs/spec/engine.md, that stops subscription `s` counting sightings from
    /// `source` in the current state (ENGINE-A1 to ENGINE-A5, ENGINE-F5 to ENGINE-F7, ENGINE-L1); nil when they count.
    /// (ENGINE-A6's windows depend on the sighting's time: `explain`.)
    func stop(_ s: Subscription, counting source: EvidenceSource) -> CountingStop? {
        switch s.status {
        case .live: return stop(s.params, counting: source)
        case .released: return .released
        case .expired: return s.endedAt == s.expiresAt ? .expired : .stoppedByUser
        case .terminated: return .terminated
        }
    }

    /// The first rule that stops a live subscription with parameters `p` counting sightings from
    /// `source` in the current state (ENGINE-A1 to ENGINE-A5, ENGINE-L1); nil when they count.
    func stop(_ p: SubscriptionParams, counting source: EvidenceSource) -> CountingStop? {
        // ENGINE-A1, ENGINE-A5 (a live subscription while the app is not running cannot be: ENGINE-L1 ends them all)
        guard isRunning else { return .terminated }
        guard state.nearbyPermission == .granted else { return .nearbyPermission(state.nearbyPermission) }
        let st = p.strategy
        guard st.mode.contains(.scan) else { return .broadcastOnly }
        let foreground = state.appState == .foreground
        if source == .audioToken {
            // ENGINE-A2, ENGINE-A3, ENGINE-A4: audio needs the microphone, never runs in the background, and
            // carries tokens.
            guard st.mediums.contains(.audio) else { return .mediumNotInStrategy(.audio) }
            guard state.microphonePermission == .granted else {
                return .microphonePermission(state.microphonePermission)
            }
            guard foreground else { return .audioInBackground }
            guard p.deviceTypes.contains(.nearbyDevices) else { return .nearbyDevicesNotDiscovered }
            return nil
        }
        // ENGINE-A2: BLE needs Bluetooth on and its permission.
        guard st.mediums.contains(.ble) else { return .mediumNotInStrategy(.ble) }
        guard state.bluetoothPowerOn else { return .bluetoothOff }
        guard state.bluetoothPermission == .granted else { return .bluetoothPermission(state.bluetoothPermission) }
        if source == .bleToken {
            // ENGINE-A4, ENGINE-A3: tokens from nearby devices, in the background with the strategy's allowance.
            guard p.deviceTypes.contains(.nearbyDevices) else { return .nearbyDevicesNotDiscovered }
            guard foreground || st.allowInBackground else { return .tokensInBackground }
            return nil
        }
        // ENGINE-A4, ENGINE-A3: beacons, in the background with the beacon strategy's allowance; iBeacons
        // by ranging, which needs includeIBeacons and the location.
        guard p.deviceTypes.contains(.bleBeacons) else { return .beaconsNotDiscovered }
        guard foreground || p.beaconStrategy.allowInBackground else { return .beaconsInBackground }
        if source == .iBeacon {
            guard p.beaconStrategy.includeIBeacons else { return .iBeaconsNotIncluded }
            guard state.locationPermission.allowsRanging(foreground: foreground) else {
                return .locationNotAllowingRanging(state.locationPermission)
            }
        }
        return nil
    }

    /// ENGINE-F3: after a state change, recomputes what each profile counts (and so each live
    /// subscription); for a subscription that counts fewer sources than before, a found message
    /// whose every remaining source is gone is lost now; one still in evidence elsewhere keeps
    /// its latest remaining sighting as the start of its lost timeout (or is lost now when
    /// that has passed).
    mutating func reconcileSources(at time: Int64, into batch: inout [EngineEvent]) {
        for p in profiles.indices {
            let counting = countingNow(profiles.params[p])
            let narrowed = !profiles.counting[p].sources.subtracting(counting.sources).isEmpty
            profiles.counting[p] = counting
            guard narrowed else { continue }
            for slot in profiles.members[p] {
                for m in found.messages(of: slot) {
                    forget(FoundKey(subscription: slot, message: m), but: counting.sources, at: time, into: &batch)
                }
            }
        }
    }

    /// ENGINE-F3: found pair `key` keeps only the evidence of the sources `kept`.
    private mutating func forget(
        _ key: FoundKey, but kept: EvidenceSources, at time: Int64, into batch: inout [EngineEvent]
    ) {
        guard var entry = found[key] else { return }
        entry.seen.keep(only: kept)
        let latest = entry.seen.latest
        if latest == .min || latest + configuration.lostTimeoutMicros <= time {
            batch.append(lostEvent(key, at: time))
            losePair(key)
        } else {
            found.set(key, entry)
            timers.push(
                .init(
                    deadline: latest + configuration.lostTimeoutMicros, kind: .lost,
                    slot: key.subscription, message: key.message, generation: entry.generation))
        }
    }

    /// ENGINE-D1, ENGINE-D4: a publication or subscription made while the Nearby permission is not
    /// determined shows the consent dialog, unless it is already showing; one made while it
    /// is denied shows Nearby's alert.
    mutating func askPermission(
        subscription: String? = nil, publication: String? = nil, custom: Bool,
        at time: Int64, into batch: inout [EngineEvent]
    ) {
        switch state.nearbyPermission {
        case .notDetermined where !isPermissionDialogShowing:
            isPermissionDialogShowing = true
            batch.append(
                EngineEvent(
                    timeMicros: time, kind: .permissionRequest, subscription: subscription, publication: publication,
                    value: custom))
        case .denied:
            batch.append(
                EngineEvent(
                    timeMicros: time, kind: .permissionAlert, subscription: subscription, publication: publication))
        default:
            break
        }
    }

    /// ENGINE-H1 to ENGINE-H5: fires the handlers whose state changed. While the app is terminated nothing
    /// fires and the baseline follows the state, so a launch fires nothing either (ENGINE-H5).
    mutating func reconcileHandlers(into batch: inout [EngineEvent]) {
        let foreground = state.appState == .foreground
        var bluetoothInUse = false, microphoneInUse = false
        for i in profiles.indices where !profiles.members[i].isEmpty {
            let p = profiles.params[i], st = p.strategy
            if st.mediums.contains(.ble) {
                // ENGINE-H2: tokens over BLE (scanning or broadcasting) as ENGINE-A3 allows them; beacon
                // scanning as the beacon strategy allows it.
                if p.deviceTypes.contains(.nearbyDevices), foreground || st.allowInBackground { bluetoothInUse = true }
                if p.deviceTypes.contains(.bleBeacons), st.mode.contains(.scan),
                    foreground || p.beaconStrategy.allowInBackground
                {
                    bluetoothInUse = true
                }
            }
            // ENGINE-H4: scanning for tokens over audio, in the foreground only.
            if st.mediums.contains(.audio), st.mode.contains(.scan), p.deviceTypes.contains(.nearbyDevices), foreground
            {
                microphoneInUse = true
            }
        }
        for st in livePublicationStrategies.keys {
            if st.mediums.contains(.ble), foreground || st.allowInBackground { bluetoothInUse = true }
            if st.mediums.contains(.audio), st.mode.contains(.scan), foreground { microphoneInUse = true }
        }
        let granted = isRunning && state.nearbyPermission == .granted
        let new = HandlerStates(
            nearbyPermission: state.nearbyPermission,
            bluetoothPowerError: granted && bluetoothInUse && !state.bluetoothPowerOn,
            bluetoothPermissionError: granted && bluetoothInUse && state.bluetoothPermission == .denied,
            microphonePermissionError: granted && microphoneInUse && state.microphonePermission == .denied)
        defer { told = new }
        guard isRunning else { return }
        let t = now
        if new.nearbyPermission != told.nearbyPermission {
            batch.append(EngineEvent(timeMicros: t, kind: .permissionChanged, value: new.nearbyPermission == .granted))
        }
        if new.bluetoothPowerError != told.bluetoothPowerError {
            batch.append(EngineEvent(timeMicros: t, kind: .bluetoothPowerError, value: new.bluetoothPowerError))
        }
        if new.bluetoothPermissionError != told.bluetoothPermissionError {
            batch.append(
                EngineEvent(timeMicros: t, kind: .bluetoothPermissionError, value: new.bluetoothPermissionError))
        }
        if new.microphonePermissionError != told.microphonePermissionError {
            batch.append(
                EngineEvent(timeMicros: t, kind: .microphonePermissionError, value: new.microphonePermissionError))
        }
    }

    func flush(_ batch: inout [EngineEvent], into events: inout [EngineEvent]) {
        batch.sort(by: EngineEvent.batchOrder)
        events.append(contentsOf: batch)
        batch.removeAll(keepingCapacity: true)
    }
}
