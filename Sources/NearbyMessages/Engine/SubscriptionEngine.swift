/// The reference subscription engine (docs/semantics.md): a pure, deterministic value fed
/// time-ordered inputs (sightings and app actions) that emits the callbacks a GNS-style
/// client would get. No wall clock, threads or randomness: time comes from the inputs, and
/// timers (lost, TTL expiry) fire at their exact virtual time when `advance(to:)`, the next
/// input or `finish` passes it.
///
/// Event order is total: by time; at one instant, timers due then fire before the inputs
/// stamped then, inputs keep their order, and the events of one batch are sorted by
/// `EngineEvent.batchOrder`.
public struct SubscriptionEngine: Sendable {
    public struct Configuration: Hashable, Sendable {
        /// How long after its last counted sighting a message is lost, µs (default 10 s).
        public var lostTimeoutMicros: Int64
        /// The observer app's project namespace: a subscription's empty namespace means it.
        public var projectNamespace: String

        public init(lostTimeoutMicros: Int64 = 10_000_000, projectNamespace: String = "") {
            self.lostTimeoutMicros = lostTimeoutMicros
            self.projectNamespace = projectNamespace
        }
    }

    struct SubscriptionSlot: Sendable {
        var id: String
        var params: SubscriptionParams
        var filter: Int32
        var live = true
        var enabled: UInt8 = 0
    }

    struct PublicationSlot: Sendable {
        var id: String
        var params: PublicationParams
        var live = true
    }

    struct FoundEntry: Sendable {
        var lastSeen: (Int64, Int64, Int64, Int64) = (.min, .min, .min, .min)
        var generation: UInt32

        @inline(__always) mutating func see(_ source: EvidenceSource, at t: Int64) {
            switch source {
            case .bleToken: lastSeen.0 = t
            case .audioToken: lastSeen.1 = t
            case .beacon: lastSeen.2 = t
            case .iBeacon: lastSeen.3 = t
            }
        }

        /// Forgets the sources not in `mask`.
        mutating func keep(_ mask: UInt8) {
            if mask & EvidenceSource.bleToken.mask == 0 { lastSeen.0 = .min }
            if mask & EvidenceSource.audioToken.mask == 0 { lastSeen.1 = .min }
            if mask & EvidenceSource.beacon.mask == 0 { lastSeen.2 = .min }
            if mask & EvidenceSource.iBeacon.mask == 0 { lastSeen.3 = .min }
        }

        var lastAny: Int64 { max(max(lastSeen.0, lastSeen.1), max(lastSeen.2, lastSeen.3)) }
    }

    struct FilterKey: Hashable, Sendable {
        var namespace: String
        var type: String
    }

    struct ErrorFlags: Equatable, Sendable {
        var permissionGranted: Bool
        var bluetoothPower = false
        var bluetoothPermission = false
        var microphone = false
    }

    public let configuration: Configuration
    public let registry: Registry
    public private(set) var state: DeviceState
    /// The time of the last input or advance (µs); `Int64.min` before any.
    public private(set) var now: Int64 = .min

    private var subscriptions: [SubscriptionSlot] = []
    private var subscriptionSlotByID: [String: Int32] = [:]
    private var publications: [PublicationSlot] = []
    private var publicationSlotByID: [String: Int32] = [:]

    private var messages: [Message]
    private var messageFilter: [Int32]
    private var reservedMessages = IdentityTable<Int32>()
    private var filters: [FilterKey: Int32] = [:]
    private var subscribersByFilter: [[Int32]] = []
    /// The filters of the two reserved types (`Message.eddystoneUIDType`,
    /// `Message.iBeaconIDType` in `Message.reservedNamespace`), once a subscription made
    /// them (-1 before): a sighting becomes a reserved message only while a subscription
    /// could find it.
    private var reservedUIDFilter: Int32 = -1
    private var reservedIBeaconFilter: Int32 = -1

    private var found = FoundTable()
    private var generation: UInt32 = 0
    private var timers = TimerQueue()
    private var flags: ErrorFlags

    public init(registry: Registry = Registry(), initialState: DeviceState = DeviceState(),
                configuration: Configuration = Configuration()) {
        self.registry = registry
        self.state = initialState
        self.configuration = configuration
        self.messages = registry.messages
        self.messageFilter = []
        self.flags = ErrorFlags(permissionGranted: initialState.nearbyPermission == .granted)
        messageFilter = registry.messages.map { filterID(FilterKey(namespace: $0.namespace, type: $0.type)) }
    }

    /// The ids of the subscriptions that exist (not released, not expired), sorted.
    public var liveSubscriptions: [String] { subscriptions.filter(\.live).map(\.id).sorted() }
    /// How many (subscription, message) pairs are currently found.
    public var foundCount: Int { found.count }

    // MARK: inputs

    /// Fires every timer due at or before `time`. Throws if `time` is before `now`.
    public mutating func advance(to time: Int64, into events: inout [EngineEvent]) throws(EngineInputError) {
        guard time >= now else {
            throw EngineInputError("input at \(time) µs is earlier than the engine's time \(now) µs; inputs must be time-ordered")
        }
        // Most inputs find no timer due (a sighting advances the engine first): nothing to fire.
        guard let due = timers.first, due.deadline <= time else {
            now = time
            return
        }
        var batch: [EngineEvent] = []
        while let top = timers.first, top.deadline <= time {
            let d = top.deadline
            now = d
            var expiry = false
            while let t = timers.first, t.deadline == d {
                if let again = fire(t, into: &batch) {
                    timers.replaceFirst(with: again)
                } else {
                    _ = timers.pop()
                }
                if t.kind != .lost { expiry = true }
            }
            // Only an expiry changes what the handler states depend on (a lost timer ends a
            // found pair, nothing else): checking them after lost timers only found nothing
            // new and cost more than the timers.
            if expiry { reconcileFlags(into: &batch) }
            flush(&batch, into: &events)
        }
        now = time
    }

    /// Feeds one sighting (after firing the timers due up to its time).
    public mutating func sight(_ sighting: Sighting, into events: inout [EngineEvent]) throws(EngineInputError) {
        try advance(to: sighting.timeMicros, into: &events)
        let source = sighting.source
        let t = sighting.timeMicros
        let start = events.count
        registry.forEachMessage(sighting) { touch($0, source, t, into: &events) }
        // A message of a reserved type is made only while something subscribes to the type:
        // otherwise it could be found by no one (messages have no state of their own, and the
        // engine's order of events does not depend on when a message was made), and making
        // one per beacon ever seen cost a lookup per sighting and memory without bound.
        switch sighting.identity.kind {
        case .eddystoneUID where sighting.identity.count == 16 && hasSubscribers(reservedUIDFilter):
            touch(reservedMessage(sighting.identity, type: Message.eddystoneUIDType), source, t, into: &events)
        case .iBeacon where sighting.identity.count == 20 && hasSubscribers(reservedIBeaconFilter):
            touch(reservedMessage(sighting.identity, type: Message.iBeaconIDType), source, t, into: &events)
        default:
            break
        }
        if events.count - start > 1 { events[start...].sort(by: EngineEvent.batchOrder) }
    }

    /// Performs an app action at `time` (after firing the timers due up to it).
    public mutating func perform(_ action: EngineAction, at time: Int64, into events: inout [EngineEvent]) throws(EngineInputError) {
        try validate(action)
        try advance(to: time, into: &events)
        var batch: [EngineEvent] = []
        switch action {
        case .subscribe(let id, let params):
            let ns = params.messageNamespace.isEmpty ? configuration.projectNamespace : params.messageNamespace
            let slot = Int32(subscriptions.count)
            let filter = filterID(FilterKey(namespace: ns, type: params.type))
            subscriptions.append(SubscriptionSlot(id: id, params: params, filter: filter))
            subscriptionSlotByID[id] = slot
            subscribersByFilter[Int(filter)].append(slot)
            if case .micros(let ttl) = params.strategy.ttl {
                timers.push(.init(deadline: time + ttl, kind: .subscriptionExpiry, slot: slot, message: -1, generation: 0))
            }
        case .unsubscribe(let id):
            let slot = subscriptionSlotByID[id]!
            end(subscription: slot, loseFound: false, at: time, into: &batch)
        case .publish(let id, let params):
            let slot = Int32(publications.count)
            publications.append(PublicationSlot(id: id, params: params))
            publicationSlotByID[id] = slot
            if case .micros(let ttl) = params.strategy.ttl {
                timers.push(.init(deadline: time + ttl, kind: .publicationExpiry, slot: slot, message: -1, generation: 0))
            }
        case .unpublish(let id):
            publications[Int(publicationSlotByID[id]!)].live = false
        case .changeState(let change):
            state.apply(change)
        case .stopNearby:
            for i in subscriptions.indices where subscriptions[i].live {
                end(subscription: Int32(i), loseFound: true, at: time, into: &batch)
                batch.append(EngineEvent(timeMicros: time, kind: .subscriptionExpired, subscription: subscriptions[i].id))
            }
            for i in publications.indices where publications[i].live {
                publications[i].live = false
                batch.append(EngineEvent(timeMicros: time, kind: .publicationExpired, publication: publications[i].id))
            }
        }
        reconcileSources(at: time, into: &batch)
        reconcileFlags(into: &batch)
        flush(&batch, into: &events)
    }

    /// Fires all pending lost timers (and whatever else falls due before the last of them),
    /// so every found message ends with its lost. Returns the engine's time afterwards.
    @discardableResult
    public mutating func finish(into events: inout [EngineEvent]) -> Int64 {
        while !found.isEmpty, let top = timers.first {
            try! advance(to: max(top.deadline, now), into: &events)
        }
        return now
    }

    // MARK: conveniences

    public mutating func sight(_ sighting: Sighting) throws(EngineInputError) -> [EngineEvent] {
        var e: [EngineEvent] = []
        try sight(sighting, into: &e)
        return e
    }

    public mutating func perform(_ action: EngineAction, at time: Int64) throws(EngineInputError) -> [EngineEvent] {
        var e: [EngineEvent] = []
        try perform(action, at: time, into: &e)
        return e
    }

    public mutating func advance(to time: Int64) throws(EngineInputError) -> [EngineEvent] {
        var e: [EngineEvent] = []
        try advance(to: time, into: &e)
        return e
    }

    public mutating func finish() -> [EngineEvent] {
        var e: [EngineEvent] = []
        finish(into: &e)
        return e
    }

    // MARK: internals

    private func validate(_ action: EngineAction) throws(EngineInputError) {
        switch action {
        case .subscribe(let id, let params):
            if subscriptionSlotByID[id] != nil { throw EngineInputError("subscription \"\(id)\" already exists (ids are used once)") }
            if params.type.utf16.count > Message.maximumTypeLength {
                throw EngineInputError("subscription type longer than \(Message.maximumTypeLength) characters")
            }
            if case .micros(let ttl) = params.strategy.ttl, !(1...TimeToLive.maximumMicros).contains(ttl) {
                throw EngineInputError("TTL must be 1 µs … 86400 s or infinite")
            }
        case .unsubscribe(let id):
            if subscriptionSlotByID[id] == nil { throw EngineInputError("no subscription \"\(id)\" to unsubscribe") }
        case .publish(let id, let params):
            if publicationSlotByID[id] != nil { throw EngineInputError("publication \"\(id)\" already exists (ids are used once)") }
            if let why = params.message.violation { throw EngineInputError(why) }
            switch params.strategy.ttl {
            case .infinite: throw EngineInputError("publications cannot have an infinite TTL (TTL_SECONDS_INFINITE is for subscriptions only)")
            case .micros(let ttl) where !(1...TimeToLive.maximumMicros).contains(ttl): throw EngineInputError("TTL must be 1 µs … 86400 s")
            default: break
            }
        case .unpublish(let id):
            if publicationSlotByID[id] == nil { throw EngineInputError("no publication \"\(id)\" to unpublish") }
        case .changeState, .stopNearby:
            break
        }
    }

    private mutating func filterID(_ key: FilterKey) -> Int32 {
        if let f = filters[key] { return f }
        let f = Int32(subscribersByFilter.count)
        filters[key] = f
        subscribersByFilter.append([])
        if key.namespace == Message.reservedNamespace {
            if key.type == Message.eddystoneUIDType { reservedUIDFilter = f }
            if key.type == Message.iBeaconIDType { reservedIBeaconFilter = f }
        }
        return f
    }

    /// Whether a subscription that has not ended has filter `f` (-1: no such filter yet).
    @inline(__always)
    private func hasSubscribers(_ f: Int32) -> Bool {
        f >= 0 && !subscribersByFilter[Int(f)].isEmpty
    }

    private mutating func reservedMessage(_ identity: SightingIdentity, type: String) -> Int32 {
        if let m = reservedMessages[identity] { return m }
        let m = Int32(messages.count)
        messages.append(Message(namespace: Message.reservedNamespace, type: type, content: identity.bytes))
        messageFilter.append(filterID(FilterKey(namespace: Message.reservedNamespace, type: type)))
        reservedMessages.insert(identity, m)
        return m
    }

    @inline(__always)
    private static func key(_ slot: Int32, _ message: Int32) -> UInt64 {
        UInt64(UInt32(bitPattern: slot)) << 32 | UInt64(UInt32(bitPattern: message))
    }

    /// A counted sighting of message `m` on `source` at `t`, for every subscription whose
    /// filter selects it and that counts that source now.
    @inline(__always)
    private mutating func touch(_ m: Int32, _ source: EvidenceSource, _ t: Int64, into events: inout [EngineEvent]) {
        let mask = source.mask
        let subscribers = subscribersByFilter[Int(messageFilter[Int(m)])]
        let subscriptions = self.subscriptions
        // The pairs already found (nearly every touch) are updated in one run over the
        // table's storage; a pair found now is added after it, in subscriber order as before.
        let allFound = found.withUpdates { table in
            var all = true
            for slot in subscribers where subscriptions[Int(slot)].enabled & mask != 0 {
                if !table.update(Self.key(slot, m), { $0.see(source, at: t) }) { all = false }
            }
            return all
        }
        if allFound { return }
        for slot in subscribers where subscriptions[Int(slot)].enabled & mask != 0 {
            let k = Self.key(slot, m)
            if found[k] == nil {
                generation &+= 1
                var entry = FoundEntry(generation: generation)
                entry.see(source, at: t)
                found.set(k, entry)
                timers.push(.init(deadline: t + configuration.lostTimeoutMicros, kind: .lost, slot: slot, message: m, generation: generation))
                events.append(EngineEvent(timeMicros: t, kind: .found, subscription: subscriptions[Int(slot)].id, message: messages[Int(m)]))
            }
        }
    }

    /// Fires timer `t`, the first of the queue (still in it: `fire` pushes no timer, so it
    /// stays first). Returns the timer that takes its place when a lost timer finds its pair
    /// seen since it was set (the queue's first is then replaced), nil when it is done (the
    /// caller pops it).
    private mutating func fire(_ t: TimerQueue.Timer, into batch: inout [EngineEvent]) -> TimerQueue.Timer? {
        switch t.kind {
        case .lost:
            let k = Self.key(t.slot, t.message)
            guard let entry = found[k], entry.generation == t.generation else { return nil }
            let deadline = entry.lastAny + configuration.lostTimeoutMicros
            if deadline > t.deadline {
                return .init(deadline: deadline, kind: .lost, slot: t.slot, message: t.message, generation: t.generation)
            } else if deadline == t.deadline {
                found.remove(k)
                batch.append(lostEvent(t.slot, t.message, at: t.deadline))
            }
        case .subscriptionExpiry:
            guard subscriptions[Int(t.slot)].live else { return nil }
            end(subscription: t.slot, loseFound: true, at: t.deadline, into: &batch)
            batch.append(EngineEvent(timeMicros: t.deadline, kind: .subscriptionExpired, subscription: subscriptions[Int(t.slot)].id))
        case .publicationExpiry:
            guard publications[Int(t.slot)].live else { return nil }
            publications[Int(t.slot)].live = false
            batch.append(EngineEvent(timeMicros: t.deadline, kind: .publicationExpired, publication: publications[Int(t.slot)].id))
        }
        return nil
    }

    private func lostEvent(_ slot: Int32, _ m: Int32, at time: Int64) -> EngineEvent {
        EngineEvent(timeMicros: time, kind: .lost, subscription: subscriptions[Int(slot)].id, message: messages[Int(m)])
    }

    /// Ends a subscription: released (no callbacks) or expired (found messages lost now).
    private mutating func end(subscription slot: Int32, loseFound: Bool, at time: Int64, into batch: inout [EngineEvent]) {
        subscriptions[Int(slot)].live = false
        subscriptions[Int(slot)].enabled = 0
        let f = Int(subscriptions[Int(slot)].filter)
        subscribersByFilter[f].removeAll { $0 == slot }
        for k in found.allKeys where Int32(truncatingIfNeeded: k >> 32) == slot {
            found.remove(k)
            if loseFound { batch.append(lostEvent(slot, Int32(truncatingIfNeeded: k & 0xFFFF_FFFF), at: time)) }
        }
    }

    /// Which evidence sources a subscription counts in the current state (rules 1–3).
    private func enabledSources(_ s: SubscriptionSlot) -> UInt8 {
        guard s.live, state.nearbyPermission == .granted else { return 0 }
        let p = s.params, st = p.strategy
        guard st.mode.contains(.scan) else { return 0 }
        let foreground = state.appState == .foreground
        var m: UInt8 = 0
        if st.mediums.contains(.ble), state.bluetoothPowerOn, state.bluetoothPermission == .granted {
            if p.deviceTypes.contains(.nearbyDevices), foreground || st.allowInBackground {
                m |= EvidenceSource.bleToken.mask
            }
            if p.deviceTypes.contains(.bleBeacons), foreground || p.beaconStrategy.allowInBackground {
                m |= EvidenceSource.beacon.mask
                if p.beaconStrategy.includeIBeacons, state.locationPermission == .granted { m |= EvidenceSource.iBeacon.mask }
            }
        }
        if st.mediums.contains(.audio), state.microphonePermission == .granted, foreground, p.deviceTypes.contains(.nearbyDevices) {
            m |= EvidenceSource.audioToken.mask
        }
        return m
    }

    /// After a state change: recomputes each subscription's sources; a found message whose
    /// every remaining source is gone is lost now; one still in evidence elsewhere keeps its
    /// latest remaining sighting as the start of its lost timeout.
    private mutating func reconcileSources(at time: Int64, into batch: inout [EngineEvent]) {
        var narrowed: [Int32: UInt8] = [:]
        for i in subscriptions.indices {
            let new = enabledSources(subscriptions[i])
            if subscriptions[i].enabled & ~new != 0 { narrowed[Int32(i)] = new }
            subscriptions[i].enabled = new
        }
        guard !narrowed.isEmpty else { return }
        for k in found.allKeys.sorted() {
            let slot = Int32(truncatingIfNeeded: k >> 32)
            guard let mask = narrowed[slot], var entry = found[k] else { continue }
            entry.keep(mask)
            let m = Int32(truncatingIfNeeded: k & 0xFFFF_FFFF)
            if entry.lastAny == .min || entry.lastAny + configuration.lostTimeoutMicros <= time {
                found.remove(k)
                batch.append(lostEvent(slot, m, at: time))
            } else {
                found.set(k, entry)
                timers.push(.init(deadline: entry.lastAny + configuration.lostTimeoutMicros, kind: .lost, slot: slot, message: m, generation: entry.generation))
            }
        }
    }

    /// Emits the state handlers whose state changed (rule 6).
    private mutating func reconcileFlags(into batch: inout [EngineEvent]) {
        let foreground = state.appState == .foreground
        var bleInUse = false, audioInUse = false
        func uses(_ st: Strategy, beaconsInBackground: Bool) {
            if st.mediums.contains(.ble), foreground || st.allowInBackground || beaconsInBackground { bleInUse = true }
            if st.mediums.contains(.audio), foreground { audioInUse = true }
        }
        for s in subscriptions where s.live {
            uses(s.params.strategy, beaconsInBackground: s.params.deviceTypes.contains(.bleBeacons) && s.params.beaconStrategy.allowInBackground)
        }
        for p in publications where p.live { uses(p.params.strategy, beaconsInBackground: false) }
        let granted = state.nearbyPermission == .granted
        let new = ErrorFlags(
            permissionGranted: granted,
            bluetoothPower: granted && bleInUse && !state.bluetoothPowerOn,
            bluetoothPermission: granted && bleInUse && state.bluetoothPermission == .denied,
            microphone: granted && audioInUse && state.microphonePermission == .denied)
        let t = now
        if new.permissionGranted != flags.permissionGranted {
            batch.append(EngineEvent(timeMicros: t, kind: .permissionChanged, value: new.permissionGranted))
        }
        if new.bluetoothPower != flags.bluetoothPower {
            batch.append(EngineEvent(timeMicros: t, kind: .bluetoothPowerError, value: new.bluetoothPower))
        }
        if new.bluetoothPermission != flags.bluetoothPermission {
            batch.append(EngineEvent(timeMicros: t, kind: .bluetoothPermissionError, value: new.bluetoothPermission))
        }
        if new.microphone != flags.microphone {
            batch.append(EngineEvent(timeMicros: t, kind: .microphonePermissionError, value: new.microphone))
        }
        flags = new
    }

    private func flush(_ batch: inout [EngineEvent], into events: inout [EngineEvent]) {
        batch.sort(by: EngineEvent.batchOrder)
        events.append(contentsOf: batch)
        batch.removeAll(keepingCapacity: true)
    }
}
