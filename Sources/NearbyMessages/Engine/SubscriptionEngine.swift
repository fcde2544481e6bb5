/// The reference subscription engine (docs/semantics.md): a pure, deterministic value fed
/// time-ordered inputs (sightings and app actions) that emits the callbacks a GNS-style
/// client would get. No wall clock, threads or randomness: time comes from the inputs, and
/// timers (lost, TTL expiry) fire at their exact virtual time when `advance(to:)`, the next
/// input or `finish` passes it.
///
/// Event order is total: by time; at one instant, timers due then fire before the inputs
/// stamped then (O2), inputs keep their order (O1), and the events of one batch are sorted by
/// `EngineEvent.batchOrder` (O3). Each rule of docs/semantics.md is named by its id where the
/// code applies it.
public struct SubscriptionEngine: Sendable {
    public struct Configuration: Hashable, Sendable {
        /// How long after its last counted sighting a message is lost, µs (F2; default 10 s).
        public var lostTimeoutMicros: Int64
        /// The observer app's project namespace: what namespace "" means, in a subscription
        /// and in a registry message alike (R3).
        public var projectNamespace: String
        /// The low-power beacon scan's duty cycle (A6).
        public var lowPowerScan: LowPowerScan

        public init(
            lostTimeoutMicros: Int64 = 10_000_000, projectNamespace: String = "",
            lowPowerScan: LowPowerScan = LowPowerScan()
        ) {
            self.lostTimeoutMicros = lostTimeoutMicros
            self.projectNamespace = projectNamespace
            self.lowPowerScan = lowPowerScan
        }
    }

    /// Where a publication or subscription object stands (F5–F7, L1, L3).
    enum Status: Sendable {
        /// Made and not ended: it runs while the state allows.
        case live
        /// Ended by its TTL or by the user stopping Nearby; the app still holds it (it may
        /// release it), and its id may name a new object.
        case expired
        /// Released by the app (unsubscribe, unpublish).
        case released
        /// Gone with the app's process (terminate).
        case terminated

        var isHeld: Bool { self == .live || self == .expired }
    }

    struct Subscription: Sendable {
        var id: String
        var params: SubscriptionParams
        /// The filter it selects messages by (R3), an index into `subscribersByFilter`.
        var filter: Int32
        /// When its TTL ends it (F6), µs; nil for an infinite TTL.
        var expiresAt: Int64?
        var status = Status.live
    }

    /// A live subscription in the list of the filter it selects by (R3), with what it counts
    /// in the current state (A1–A6).
    struct Subscriber: Sendable, BitwiseCopyable {
        /// Its index in `subscriptions`.
        let slot: Int32
        /// When it was made: the start of its low-power scan's windows, µs.
        let since: Int64
        /// The sources it counts (A1–A5).
        var sources: EvidenceSources = []
        /// Its beacon sightings count only inside the low-power scan's windows (A6).
        var lowPowerBeacons = false

        init(slot: Int32, since: Int64) {
            self.slot = slot
            self.since = since
        }

        /// Whether a sighting from `source` at `t` counts for it (A1–A6; A6: a beacon
        /// sighting inside the low-power scan's `windows` when duty-cycled).
        @inline(__always)
        func counts(_ source: EvidenceSource, at t: Int64, windows: LowPowerScan) -> Bool {
            sources.contains(source) && (source != .beacon || !lowPowerBeacons || windows.listens(at: t, since: since))
        }
    }

    struct Publication: Sendable {
        var id: String
        var params: PublicationParams
        /// When its TTL ends it (P1), µs.
        var expiresAt: Int64?
        var status = Status.live
    }

    /// A subscription's filter (R3): the namespace it means (project namespace for "") and a
    /// type ("" for every type of the namespace), compared by UTF-8 bytes (R4).
    struct FilterKey: Hashable, Sendable {
        var namespace: ExactString
        var type: ExactString
    }

    /// The filters that select a message (R3): its exact (namespace, type) and, for a typed
    /// message, its namespace's every-type filter.
    struct MessageFilters: Sendable {
        var exact: Int32
        var everyType: Int32?
    }

    public let configuration: Configuration
    /// The registry as given.
    public let registry: Registry
    /// The registry the engine resolves sightings with (R1, R2): namespace "" made the
    /// project's (R3), so that its message i is the engine's message i.
    private let resolving: Registry
    public private(set) var state: DeviceState
    /// The time of the last input or advance (µs); `Int64.min` before any.
    public private(set) var now: Int64 = .min
    /// Whether the app runs (L1, L2): an engine starts with the app launched.
    public private(set) var isRunning = true
    /// Whether the consent dialog is showing, waiting for the user's answer (D1–D3).
    public private(set) var isPermissionDialogShowing = false

    private var subscriptions: [Subscription] = []
    /// The latest subscription each id named (L3).
    private var subscriptionByID: [ExactString: Int32] = [:]
    private var publications: [Publication] = []
    private var publicationByID: [ExactString: Int32] = [:]

    /// Every message the engine knows: the registry's (namespace "" made the project's, equal
    /// ones merged: R3, R4) and the reserved beacon-ID messages made so far (R2).
    private var messages: [Message] = []
    private var messageIndex: [Message: Int32] = [:]
    private var messageFilters: [MessageFilters] = []
    private var reservedMessages = IdentityTable<Int32>()
    /// The messages of the sighting being fed that a subscriber counts and has not found
    /// yet (F1), found once the registry walk is done; empty between sightings.
    private var unfound: [Int32] = []

    private var filters: [FilterKey: Int32] = [:]
    /// How many live subscriptions have an empty type, selecting by an every-type filter (R3).
    private var typelessSubscriptions = 0
    /// The live subscriptions selecting by each filter, in the order they were made.
    private var subscribersByFilter: [[Subscriber]] = []
    /// The filters of the reserved namespace (R2), once made: a sighting becomes a reserved
    /// message only while a subscription could find it.
    private var reservedUIDFilter: Int32?
    private var reservedIBeaconFilter: Int32?
    private var reservedEveryTypeFilter: Int32?

    private var found = FoundTable()
    private var generation: UInt32 = 0
    private var timers = TimerQueue()
    private var told: HandlerStates

    public init(
        registry: Registry = Registry(), initialState: DeviceState = DeviceState(),
        configuration: Configuration = Configuration()
    ) {
        self.state = initialState
        self.configuration = configuration
        self.told = HandlerStates(nearbyPermission: initialState.nearbyPermission)
        self.registry = registry
        self.resolving = registry.inProject(configuration.projectNamespace)
        for (i, m) in resolving.messages.enumerated() {
            let index = intern(m)
            precondition(index == i, "the registry holds each message once, byte for byte (R4)")
        }
    }

    /// The ids of the subscriptions that run or may run (not ended), sorted by UTF-8 bytes.
    public var liveSubscriptions: [String] {
        subscriptions.filter { $0.status == .live }.map(\.id).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }
    /// How many (subscription, message) pairs are currently found.
    public var foundCount: Int { found.count }

    // MARK: inputs

    /// Fires every timer due at or before `time` (O2). Throws if `time` is before `now` (O1).
    public mutating func advance(to time: Int64, into events: inout [EngineEvent]) throws(EngineInputError) {
        guard time >= now else {
            throw EngineInputError(
                .timeOrder,
                "input at \(time) µs is earlier than the engine's time \(now) µs; inputs must be time-ordered")
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
            // Only an expiry changes what the handlers' states depend on (a lost timer ends a
            // found pair, nothing else).
            if expiry { reconcileHandlers(into: &batch) }
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
        // R1, R2: the registry's messages for this sighting.
        resolving.forEachMessage(sighting) { touch($0, source, t) }
        // R2: a beacon ID's reserved message, made only while something could find it
        // (messages have no state of their own, and making one per beacon ever seen would cost
        // a lookup per sighting and memory without bound).
        switch sighting.identity.kind {
        case .eddystoneUID
        where sighting.identity.count == 16 && hasSubscribers(reservedUIDFilter, reservedEveryTypeFilter):
            touch(reservedMessage(sighting.identity, type: Message.eddystoneUIDType), source, t)
        case .iBeacon
        where sighting.identity.count == 20 && hasSubscribers(reservedIBeaconFilter, reservedEveryTypeFilter):
            touch(reservedMessage(sighting.identity, type: Message.iBeaconIDType), source, t)
        default:
            break
        }
        if !unfound.isEmpty {
            for m in unfound { addFound(m, source, t, into: &events) }
            unfound.removeAll(keepingCapacity: true)
        }
        if events.count - start > 1 { events[start...].sort(by: EngineEvent.batchOrder) }
    }

    /// Performs an app action at `time` (after firing the timers due up to it).
    public mutating func perform(
        _ action: EngineAction, at time: Int64, into events: inout [EngineEvent]
    ) throws(EngineInputError) {
        try validate(action, at: time)
        try advance(to: time, into: &events)
        var batch: [EngineEvent] = []
        switch action {
        case .subscribe(let id, let params):
            let ns = params.messageNamespace.isEmpty ? configuration.projectNamespace : params.messageNamespace
            let slot = Int32(subscriptions.count)
            let filter = filterID(FilterKey(namespace: ExactString(ns), type: ExactString(params.type)))
            var s = Subscription(id: id, params: params, filter: filter)
            if case .micros(let ttl) = params.strategy.ttl {
                s.expiresAt = time + ttl
                timers.push(
                    .init(deadline: time + ttl, kind: .subscriptionExpiry, slot: slot, message: 0, generation: 0))
            }
            subscriptions.append(s)
            subscriptionByID[ExactString(id)] = slot
            subscribersByFilter[Int(filter)].append(Subscriber(slot: slot, since: time))
            if params.type.isEmpty { typelessSubscriptions += 1 }
            askPermission(subscription: id, custom: params.permissionRequestHandler, at: time, into: &batch)
        case .unsubscribe(let id):
            end(subscription: subscriptionByID[ExactString(id)]!, as: .released, at: time, into: &batch)
        case .publish(let id, let params):
            let slot = Int32(publications.count)
            var p = Publication(id: id, params: params)
            if case .micros(let ttl) = params.strategy.ttl {
                p.expiresAt = time + ttl
                timers.push(
                    .init(deadline: time + ttl, kind: .publicationExpiry, slot: slot, message: 0, generation: 0))
            }
            publications.append(p)
            publicationByID[ExactString(id)] = slot
            askPermission(publication: id, custom: params.permissionRequestHandler, at: time, into: &batch)
        case .unpublish(let id):
            publications[Int(publicationByID[ExactString(id)]!)].status = .released
        case .changeState(let change):
            state.apply(change)
            // D3: the permission set another way (the app's settings toggle) answers the dialog.
            if state.nearbyPermission != .notDetermined { isPermissionDialogShowing = false }
        case .stopNearby:
            // F7: everything expires, as by its TTL.
            for i in subscriptions.indices where subscriptions[i].status == .live {
                end(subscription: Int32(i), as: .expired, at: time, into: &batch)
                batch.append(
                    EngineEvent(timeMicros: time, kind: .subscriptionExpired, subscription: subscriptions[i].id))
            }
            for i in publications.indices where publications[i].status == .live {
                publications[i].status = .expired
                batch.append(EngineEvent(timeMicros: time, kind: .publicationExpired, publication: publications[i].id))
            }
        case .answerPermission(let granted):
            // D3
            state.nearbyPermission = granted ? .granted : .denied
            isPermissionDialogShowing = false
        case .terminate:
            // L1: everything goes without a callback, the dialog with it.
            for i in subscriptions.indices where subscriptions[i].status.isHeld {
                end(subscription: Int32(i), as: .terminated, at: time, into: &batch)
            }
            for i in publications.indices where publications[i].status.isHeld { publications[i].status = .terminated }
            isPermissionDialogShowing = false
            isRunning = false
        case .launch:
            // L2
            isRunning = true
        }
        reconcileSources(at: time, into: &batch)
        reconcileHandlers(into: &batch)
        flush(&batch, into: &events)
    }

    /// Fires all pending lost timers (and whatever else falls due before the last of them),
    /// so every found message ends with its lost (F9). Returns the engine's time afterwards.
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

    // MARK: input rules (V1, L1–L3, D3)

    /// Refuses an action the rules do not allow at `time`, after the timers due then (O2: an
    /// id whose object's TTL ends at `time` is free at `time`); the engine is unchanged.
    public func validate(_ action: EngineAction, at time: Int64) throws(EngineInputError) {
        guard time >= now else {
            throw EngineInputError(
                .timeOrder,
                "input at \(time) µs is earlier than the engine's time \(now) µs; inputs must be time-ordered")
        }
        @inline(__always) func live(_ status: Status, _ expiresAt: Int64?) -> Bool {
            status == .live && !(expiresAt.map { $0 <= time } ?? false)
        }
        switch action {
        case .changeState:
            return
        case .launch:
            if isRunning {
                throw EngineInputError(.alreadyRunning, "the app is already running; launch follows a terminate")
            }
            return
        default:
            guard isRunning else { throw EngineInputError(.notRunning, "the app is terminated; launch it first") }
        }
        switch action {
        case .subscribe(let id, let params):
            if let slot = subscriptionByID[ExactString(id)],
                live(subscriptions[Int(slot)].status, subscriptions[Int(slot)].expiresAt)
            {
                throw EngineInputError(
                    .idInUse,
                    "subscription id \"\(id)\" is in use: an id names one subscription until it ends (released, "
                        + "expired or terminated)"
                )
            }
            if params.type.utf16.count > Message.maximumTypeLength {
                throw EngineInputError(
                    .invalidParameters, "subscription type longer than \(Message.maximumTypeLength) characters")
            }
            if case .micros(let ttl) = params.strategy.ttl, !(1...TimeToLive.maximumMicros).contains(ttl) {
                throw EngineInputError(.invalidParameters, "TTL must be 1 µs … 86400 s or infinite")
            }
        case .unsubscribe(let id):
            guard let slot = subscriptionByID[ExactString(id)], subscriptions[Int(slot)].status.isHeld else {
                throw EngineInputError(
                    .unknownID, "no subscription \"\(id)\" to unsubscribe: the app holds none by that id now")
            }
        case .publish(let id, let params):
            if let slot = publicationByID[ExactString(id)],
                live(publications[Int(slot)].status, publications[Int(slot)].expiresAt)
            {
                throw EngineInputError(
                    .idInUse,
                    "publication id \"\(id)\" is in use: an id names one publication until it ends (released, "
                        + "expired or terminated)"
                )
            }
            if let why = params.message.violation { throw EngineInputError(.invalidParameters, why) }
            switch params.strategy.ttl {
            case .infinite:
                throw EngineInputError(
                    .invalidParameters,
                    "publications cannot have an infinite TTL (TTL_SECONDS_INFINITE is for subscriptions only)")
            case .micros(let ttl) where !(1...TimeToLive.maximumMicros).contains(ttl):
                throw EngineInputError(.invalidParameters, "TTL must be 1 µs … 86400 s")
            default: break
            }
        case .unpublish(let id):
            guard let slot = publicationByID[ExactString(id)], publications[Int(slot)].status.isHeld else {
                throw EngineInputError(
                    .unknownID, "no publication \"\(id)\" to unpublish: the app holds none by that id now")
            }
        case .answerPermission:
            if !isPermissionDialogShowing {
                throw EngineInputError(.noDialog, "no consent dialog is showing to answer")
            }
        case .stopNearby, .terminate, .changeState, .launch:
            break
        }
    }

    // MARK: messages and filters (R1–R4)

    /// The engine index of message `m`, added (with its filters) when new. Equal messages,
    /// byte for byte, share one index (R4).
    private mutating func intern(_ m: Message) -> Int32 {
        if let i = messageIndex[m] { return i }
        let i = Int32(messages.count)
        messages.append(m)
        messageIndex[m] = i
        let exact = filterID(FilterKey(namespace: ExactString(m.namespace), type: ExactString(m.type)))
        let everyType =
            m.type.isEmpty ? nil : filterID(FilterKey(namespace: ExactString(m.namespace), type: ExactString("")))
        messageFilters.append(MessageFilters(exact: exact, everyType: everyType))
        return i
    }

    private mutating func filterID(_ key: FilterKey) -> Int32 {
        if let f = filters[key] { return f }
        let f = Int32(subscribersByFilter.count)
        filters[key] = f
        subscribersByFilter.append([])
        if key.namespace == ExactString(Message.reservedNamespace) {
            switch key.type {
            case ExactString(Message.eddystoneUIDType): reservedUIDFilter = f
            case ExactString(Message.iBeaconIDType): reservedIBeaconFilter = f
            case ExactString(""): reservedEveryTypeFilter = f
            default: break
            }
        }
        return f
    }

    /// Whether a held, live subscription selects by one of these filters.
    @inline(__always)
    private func hasSubscribers(_ a: Int32?, _ b: Int32?) -> Bool {
        if let a, !subscribersByFilter[Int(a)].isEmpty { return true }
        if let b, !subscribersByFilter[Int(b)].isEmpty { return true }
        return false
    }

    /// The reserved message of a beacon ID (R2), one with a registry message equal to it (R4).
    private mutating func reservedMessage(_ identity: SightingIdentity, type: String) -> Int32 {
        if let m = reservedMessages[identity] { return m }
        let m = intern(Message(namespace: Message.reservedNamespace, type: type, content: identity.bytes))
        reservedMessages.insert(identity, m)
        return m
    }

    // MARK: found and lost (F1–F3)

    /// A sighting from `source` at `t` resolved to message `m` (R1, R2): found for every
    /// subscription whose filter selects it (R3) and that counts the source now (A1–A6), or
    /// fresh evidence for the pairs already found (F2); a message with a subscriber that
    /// counts it and has not found it goes to `unfound` (F1).
    @inline(__always)
    private mutating func touch(_ m: Int32, _ source: EvidenceSource, _ t: Int64) {
        let f = messageFilters[Int(m)]
        touch(m, subscribersByFilter[Int(f.exact)], source, t)
        if typelessSubscriptions > 0, let w = f.everyType { touch(m, subscribersByFilter[Int(w)], source, t) }
    }

    @inline(__always)
    private mutating func touch(_ m: Int32, _ subscribers: [Subscriber], _ source: EvidenceSource, _ t: Int64) {
        let windows = configuration.lowPowerScan
        // The pairs already found (nearly every touch) are updated in one run over the
        // table's storage.
        let allFound = found.withUpdates { table in
            var all = true
            for s in subscribers where s.counts(source, at: t, windows: windows) {
                if !table.update(FoundKey(subscription: s.slot, message: m), { $0.seen[source] = t }) { all = false }
            }
            return all
        }
        if !allFound { unfound.append(m) }
    }

    /// F1: the subscribers of message `m` that count this sighting and have not found `m`
    /// find it now, each with its lost timer (F2).
    private mutating func addFound(_ m: Int32, _ source: EvidenceSource, _ t: Int64, into events: inout [EngineEvent]) {
        let windows = configuration.lowPowerScan
        let f = messageFilters[Int(m)]
        let subscribers = subscribersByFilter[Int(f.exact)] + (f.everyType.map { subscribersByFilter[Int($0)] } ?? [])
        for s in subscribers where s.counts(source, at: t, windows: windows) {
            let slot = s.slot
            let key = FoundKey(subscription: slot, message: m)
            if found[key] == nil {
                generation &+= 1
                var entry = FoundTable.Entry(generation: generation)
                entry.seen[source] = t
                found.set(key, entry)
                timers.push(
                    .init(
                        deadline: t + configuration.lostTimeoutMicros, kind: .lost, slot: slot, message: m,
                        generation: generation))
                events.append(
                    EngineEvent(
                        timeMicros: t, kind: .found, subscription: subscriptions[Int(slot)].id,
                        message: messages[Int(m)]))
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
            // F2
            let key = FoundKey(subscription: t.slot, message: t.message)
            guard let entry = found[key], entry.generation == t.generation else { return nil }
            let deadline = entry.seen.latest + configuration.lostTimeoutMicros
            if deadline > t.deadline {
                return .init(
                    deadline: deadline, kind: .lost, slot: t.slot, message: t.message, generation: t.generation)
            } else if deadline == t.deadline {
                found.remove(key)
                batch.append(lostEvent(key, at: t.deadline))
            }
        case .subscriptionExpiry:
            // F6
            guard subscriptions[Int(t.slot)].status == .live else { return nil }
            end(subscription: t.slot, as: .expired, at: t.deadline, into: &batch)
            batch.append(
                EngineEvent(
                    timeMicros: t.deadline, kind: .subscriptionExpired, subscription: subscriptions[Int(t.slot)].id))
        case .publicationExpiry:
            // P1
            guard publications[Int(t.slot)].status == .live else { return nil }
            publications[Int(t.slot)].status = .expired
            batch.append(
                EngineEvent(
                    timeMicros: t.deadline, kind: .publicationExpired, publication: publications[Int(t.slot)].id))
        }
        return nil
    }

    private func lostEvent(_ key: FoundKey, at time: Int64) -> EngineEvent {
        EngineEvent(
            timeMicros: time, kind: .lost, subscription: subscriptions[Int(key.subscription)].id,
            message: messages[Int(key.message)])
    }

    /// Ends a live or expired subscription: expired (F6, F7: its found messages are lost now),
    /// released (F5) or terminated (L1): no callback.
    private mutating func end(
        subscription slot: Int32, as status: Status, at time: Int64, into batch: inout [EngineEvent]
    ) {
        let wasLive = subscriptions[Int(slot)].status == .live
        subscriptions[Int(slot)].status = status
        guard wasLive else { return }
        subscribersByFilter[Int(subscriptions[Int(slot)].filter)].removeAll { $0.slot == slot }
        if subscriptions[Int(slot)].params.type.isEmpty { typelessSubscriptions -= 1 }
        for key in found.allKeys where key.subscription == slot {
            found.remove(key)
            if status == .expired { batch.append(lostEvent(key, at: time)) }
        }
    }

    // MARK: state (A1–A6, F3, D1, D4, H1–H5)

    /// Which sources subscription `s` counts in the current state, and whether its beacon
    /// sightings count only in the low-power scan's windows.
    private func countingNow(_ s: Subscription) -> (EvidenceSources, lowPowerBeacons: Bool) {
        // A1, A5
        guard isRunning, s.status == .live, state.nearbyPermission == .granted, s.params.strategy.mode.contains(.scan)
        else { return ([], false) }
        let p = s.params, st = p.strategy
        let foreground = state.appState == .foreground
        var sources: EvidenceSources = []
        var lowPower = false
        // A2: BLE needs Bluetooth on and its permission.
        if st.mediums.contains(.ble), state.bluetoothPowerOn, state.bluetoothPermission == .granted {
            // A3, A4: tokens from nearby devices, in the background with the strategy's allowance.
            if p.deviceTypes.contains(.nearbyDevices), foreground || st.allowInBackground {
                sources.insert(.bleToken)
            }
            // A3, A4, A6: beacons, in the background with the beacon strategy's allowance.
            if p.deviceTypes.contains(.bleBeacons), foreground || p.beaconStrategy.allowInBackground {
                sources.insert(.beacon)
                let ranging = state.locationPermission.allowsRanging(foreground: foreground)
                if p.beaconStrategy.includeIBeacons, ranging { sources.insert(.iBeacon) }
                lowPower = !(ranging && (p.beaconStrategy.includeIBeacons || !p.beaconStrategy.lowPowerPreferred))
            }
        }
        // A2, A3: audio needs the microphone, and never runs in the background.
        if st.mediums.contains(.audio), state.microphonePermission == .granted, foreground,
            p.deviceTypes.contains(.nearbyDevices)
        {
            sources.insert(.audioToken)
        }
        return (sources, lowPower)
    }

    /// F3: after a state change, recomputes what each subscription counts; a found message
    /// whose every remaining source is gone is lost now; one still in evidence elsewhere keeps
    /// its latest remaining sighting as the start of its lost timeout (or is lost now when
    /// that has passed).
    private mutating func reconcileSources(at time: Int64, into batch: inout [EngineEvent]) {
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

    /// D1, D4: a publication or subscription made while the Nearby permission is not
    /// determined shows the consent dialog, unless it is already showing; one made while it
    /// is denied shows Nearby's alert.
    private mutating func askPermission(
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

    /// H1–H5: fires the handlers whose state changed. While the app is terminated nothing
    /// fires and the baseline follows the state, so a launch fires nothing either (H5).
    private mutating func reconcileHandlers(into batch: inout [EngineEvent]) {
        let foreground = state.appState == .foreground
        var bluetoothInUse = false, microphoneInUse = false
        for s in subscriptions where s.status == .live {
            let p = s.params, st = p.strategy
            if st.mediums.contains(.ble) {
                // H2: tokens over BLE (scanning or broadcasting) as A3 allows them; beacon
                // scanning as the beacon strategy allows it.
                if p.deviceTypes.contains(.nearbyDevices), foreground || st.allowInBackground { bluetoothInUse = true }
                if p.deviceTypes.contains(.bleBeacons), st.mode.contains(.scan),
                    foreground || p.beaconStrategy.allowInBackground
                {
                    bluetoothInUse = true
                }
            }
            // H4: scanning for tokens over audio, in the foreground only.
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

    private func flush(_ batch: inout [EngineEvent], into events: inout [EngineEvent]) {
        batch.sort(by: EngineEvent.batchOrder)
        events.append(contentsOf: batch)
        batch.removeAll(keepingCapacity: true)
    }
}
