/// Device and app state: which sources count, permission dialogs and the error handlers (ENGINE-A1 to ENGINE-A6,
/// ENGINE-F3, ENGINE-D1, ENGINE-D4, ENGINE-H1 to ENGINE-H5).
extension SubscriptionEngine {
    // MARK: state (ENGINE-A1 to ENGINE-A6, ENGINE-F3, ENGINE-D1, ENGINE-D4, ENGINE-H1 to ENGINE-H5)

    /// Which sources subscription `s` counts in the current state (those no rule stops:
    /// `stop(_:counting:)`), and whether its beacon sightings count only in the low-power
    /// scan's windows (ENGINE-A6).
    func countingNow(_ s: Subscription) -> (EvidenceSources, lowPowerBeacons: Bool) {
        var sources: EvidenceSources = []
        for source in EvidenceSource.allCases where stop(s, counting: source) == nil { sources.insert(source.set) }
        guard sources.contains(.beacon) else { return (sources, false) }
        // ENGINE-A6: iBeacon ranging runs for it when the location allows ranging and it asks for
        // the high-power mode.
        let b = s.params.beaconStrategy
        let ranging = state.locationPermission.allowsRanging(foreground: state.appState == .foreground)
        return (sources, !(ranging && (b.includeIBeacons || !b.lowPowerPreferred)))
    }

    /// The first rule, in the order of docs/spec/engine.md, that stops subscription `s` counting sightings from
    /// `source` in the current state (ENGINE-A1 to ENGINE-A5, ENGINE-F5 to ENGINE-F7, ENGINE-L1); nil when they count.
    /// (ENGINE-A6's windows depend on the sighting's time: `explain`.)
    func stop(_ s: Subscription, counting source: EvidenceSource) -> CountingStop? {
        switch s.status {
        case .live: break
        case .released: return .released
        case .expired: return s.endedAt == s.expiresAt ? .expired : .stoppedByUser
        case .terminated: return .terminated
        }
        // ENGINE-A1, ENGINE-A5 (a live subscription while the app is not running cannot be: ENGINE-L1 ends them all)
        guard isRunning else { return .terminated }
        guard state.nearbyPermission == .granted else { return .nearbyPermission(state.nearbyPermission) }
        let p = s.params, st = p.strategy
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

    /// ENGINE-F3: after a state change, recomputes what each subscription counts; a found message
    /// whose every remaining source is gone is lost now; one still in evidence elsewhere keeps
    /// its latest remaining sighting as the start of its lost timeout (or is lost now when
    /// that has passed).
    mutating func reconcileSources(at time: Int64, into batch: inout [EngineEvent]) {
        var narrowed: [Int32: EvidenceSources] = [:]
        for i in subscriptions.indices where subscriptions[i].status == .live {
            let (sources, lowPower) = countingNow(subscriptions[i])
            let f = Int(subscriptions[i].filter)
            let j = subscribersByFilter[f].firstIndex { $0.slot == Int32(i) }!
            if !subscribersByFilter[f][j].sources.subtracting(sources).isEmpty { narrowed[Int32(i)] = sources }
            subscribersByFilter[f][j].sources = sources
            subscribersByFilter[f][j].lowPowerBeacons = lowPower
        }
        guard !narrowed.isEmpty else { return }
        for key in found.allKeys.sorted() {
            guard let kept = narrowed[key.subscription], var entry = found[key] else { continue }
            entry.seen.keep(only: kept)
            let latest = entry.seen.latest
            if latest == .min || latest + configuration.lostTimeoutMicros <= time {
                found.remove(key)
                batch.append(lostEvent(key, at: time))
            } else {
                found.set(key, entry)
                timers.push(
                    .init(
                        deadline: latest + configuration.lostTimeoutMicros, kind: .lost,
                        slot: key.subscription, message: key.message, generation: entry.generation))
            }
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
        for s in subscriptions where s.status == .live {
            let p = s.params, st = p.strategy
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
        for p in publications where p.status == .live {
            let st = p.params.strategy
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
