/// The reference subscription engine (docs/spec/engine.md): a pure, deterministic value fed
/// time-ordered inputs (sightings and app actions) that emits the callbacks a GNS-style
/// client would get. No wall clock, threads or randomness: time comes from the inputs, and
/// timers (lost, TTL expiry) fire at their exact virtual time when `advance(to:)`, the next
/// input or `finish` passes it.
///
/// Event order is total: by time; at one instant, timers due then fire before the inputs
/// stamped then (ENGINE-O2), inputs keep their order (ENGINE-O1), and the events of one batch are sorted by
/// `EngineEvent.batchOrder` (ENGINE-O3). Each rule of docs/spec/engine.md is named by its id where the
/// code applies it.
public struct SubscriptionEngine: Sendable {
    public let configuration: Configuration
    /// The registry as given.
    public let registry: Registry
    /// The registry the engine resolves sightings with (ENGINE-R1, ENGINE-R2): namespace "" made the
    /// project's (ENGINE-R3A), so that its message i is the engine's message i.
    let resolving: Registry
    public internal(set) var state: DeviceState
    /// The time of the last input or advance (µs); `Int64.min` before any.
    public internal(set) var now: Int64 = .min
    /// Whether the app runs (ENGINE-L1, ENGINE-L2): an engine starts with the app launched.
    public internal(set) var isRunning = true
    /// Whether the consent dialog is showing, waiting for the user's answer (ENGINE-D1 to ENGINE-D3).
    public internal(set) var isPermissionDialogShowing = false

    var subscriptions: [Subscription] = []
    /// The latest subscription each id named (ENGINE-L3).
    var subscriptionByID: [ExactString: Int32] = [:]
    var publications: [Publication] = []
    var publicationByID: [ExactString: Int32] = [:]
    /// The subscriptions and publications the app may still hold (live or expired), and some it
    /// no longer does: stopping Nearby and terminating walk these, and prune them.
    var heldSubscriptions: [Int32] = []
    var heldPublications: [Int32] = []
    /// What the handlers ask of the live publications (ENGINE-H2, ENGINE-H4): how many have each
    /// strategy (its TTL left out).
    var livePublicationStrategies: [Strategy: Int] = [:]
    /// The live subscriptions by what they count (ENGINE-A1 to ENGINE-A6).
    var profiles = CountingProfiles()

    /// Every message the engine knows: the registry's (namespace "" made the project's, equal
    /// ones merged: ENGINE-R3, ENGINE-R4) and the reserved beacon-ID messages made so far (ENGINE-R2).
    var messages: [Message] = []
    var messageIndex: [Message: Int32] = [:]
    var messageFilters: [MessageFilters] = []
    /// How many found pairs hold each message.
    var pairsOfMessage: [Int32] = []
    /// The indices of released reserved messages, to be reused (`releaseIfReserved`).
    var freeMessages: [Int32] = []
    /// The reserved messages made (ENGINE-R2), by beacon ID.
    var reservedMessages = IdentityTable<Int32>()
    /// The registry's messages that equal a beacon ID's reserved message (ENGINE-R4), by beacon ID.
    var registryReserved = IdentityTable<Int32>()
    /// The messages of the sighting being fed that a subscriber counts and has not found
    /// yet (ENGINE-F1), found once the registry walk is done; empty between sightings.
    var unfound: [Int32] = []

    var filters: [FilterKey: Int32] = [:]
    /// How many live subscriptions have an empty type, selecting by an every-type filter (ENGINE-R3).
    var typelessSubscriptions = 0
    /// The live subscriptions selecting by each filter, in the order they were made.
    var subscribersByFilter: [[Subscriber]] = []
    /// The filters of the reserved namespace (ENGINE-R2), once made: a sighting becomes a reserved
    /// message only while a subscription could find it.
    var reservedUIDFilter: Int32?
    var reservedIBeaconFilter: Int32?
    var reservedEveryTypeFilter: Int32?

    var found = FoundTable()
    var generation: UInt32 = 0
    var timers = TimerQueue()
    var told: HandlerStates

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
            if let id = Self.beaconID(reservedMessage: m) { registryReserved.insert(id, index) }
        }
    }

    /// The ids of the subscriptions that run or may run (not ended), sorted by UTF-8 bytes.
    public var liveSubscriptions: [String] {
        subscriptions.filter { $0.status == .live }.map(\.id).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }
    /// How many (subscription, message) pairs are currently found.
    public var foundCount: Int { found.count }

    // MARK: inputs

    /// Fires every timer due at or before `time` (ENGINE-O2). Throws if `time` is before `now` (ENGINE-O1).
    package mutating func advance(to time: Int64, into events: inout [EngineEvent]) throws(EngineInputError) {
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
    package mutating func sight(_ sighting: Sighting, into events: inout [EngineEvent]) throws(EngineInputError) {
        try advance(to: sighting.timeMicros, into: &events)
        let source = sighting.source
        let t = sighting.timeMicros
        let start = events.count
        // ENGINE-R1, ENGINE-R2: the registry's messages for this sighting.
        resolving.forEachMessage(sighting) { touch($0, source, t) }
        // ENGINE-R2: a beacon ID's reserved message, made only while something could find it
        // (messages have no state of their own, and making one per beacon ever seen would cost
        // a lookup per sighting and memory without bound).
        var reserved: Int32?
        switch sighting.identity.kind {
        case .eddystoneUID
        where sighting.identity.count == 16 && hasSubscribers(reservedUIDFilter, reservedEveryTypeFilter):
            reserved = reservedMessage(sighting.identity, type: Message.eddystoneUIDType)
        case .iBeacon
        where sighting.identity.count == 20 && hasSubscribers(reservedIBeaconFilter, reservedEveryTypeFilter):
            reserved = reservedMessage(sighting.identity, type: Message.iBeaconIDType)
        default:
            break
        }
        if let reserved { touch(reserved, source, t) }
        if !unfound.isEmpty {
            for m in unfound { addFound(m, source, t, into: &events) }
            unfound.removeAll(keepingCapacity: true)
        }
        // A reserved message no subscription found (none counted the sighting) goes again.
        if let reserved { releaseIfReserved(reserved) }
        if events.count - start > 1 { events[start...].sort(by: EngineEvent.batchOrder) }
    }

    /// Performs an app action at `time` (after firing the timers due up to it).
    package mutating func perform(
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
            let profile = profiles.profile(of: params)
            var s = Subscription(id: id, params: params, filter: filter, profile: profile)
            s.expiresAt = scheduleExpiry(params.strategy.ttl, .subscriptionExpiry, slot: slot, at: time)
            s.filterPosition = Int32(subscribersByFilter[Int(filter)].count)
            s.profilePosition = profiles.add(slot, to: profile)
            subscriptions.append(s)
            subscriptionByID[ExactString(id)] = slot
            heldSubscriptions.append(slot)
            subscribersByFilter[Int(filter)].append(Subscriber(slot: slot, profile: profile, since: time))
            if params.type.isEmpty { typelessSubscriptions += 1 }
            askPermission(subscription: id, custom: params.permissionRequestHandler, at: time, into: &batch)
        case .unsubscribe(let id):
            end(subscription: subscriptionByID[ExactString(id)]!, as: .released, at: time, into: &batch)
        case .publish(let id, let params):
            let slot = Int32(publications.count)
            var p = Publication(id: id, params: params)
            p.expiresAt = scheduleExpiry(params.strategy.ttl, .publicationExpiry, slot: slot, at: time)
            publications.append(p)
            publicationByID[ExactString(id)] = slot
            heldPublications.append(slot)
            livePublicationStrategies[Self.handlerKey(params.strategy), default: 0] += 1
            askPermission(publication: id, custom: params.permissionRequestHandler, at: time, into: &batch)
        case .unpublish(let id):
            end(publication: publicationByID[ExactString(id)]!, as: .released)
        case .changeState(let change):
            state.apply(change)
            // ENGINE-D3: the permission set another way (the app's settings toggle) answers the dialog.
            if state.nearbyPermission != .notDetermined { isPermissionDialogShowing = false }
        case .stopNearby:
            // ENGINE-F7: everything expires, as by its TTL.
            heldSubscriptions.removeAll { !subscriptions[Int($0)].status.isHeld }
            for i in heldSubscriptions where subscriptions[Int(i)].status == .live {
                end(subscription: i, as: .expired, at: time, into: &batch)
                batch.append(
                    EngineEvent(timeMicros: time, kind: .subscriptionExpired, subscription: subscriptions[Int(i)].id))
            }
            heldPublications.removeAll { !publications[Int($0)].status.isHeld }
            for i in heldPublications where publications[Int(i)].status == .live {
                end(publication: i, as: .expired)
                batch.append(
                    EngineEvent(timeMicros: time, kind: .publicationExpired, publication: publications[Int(i)].id))
            }
        case .answerPermission(let granted):
            // ENGINE-D3
            state.nearbyPermission = granted ? .granted : .denied
            isPermissionDialogShowing = false
        case .terminate:
            // ENGINE-L1: everything goes without a callback, the dialog with it.
            for i in heldSubscriptions where subscriptions[Int(i)].status.isHeld {
                end(subscription: i, as: .terminated, at: time, into: &batch)
            }
            for i in heldPublications where publications[Int(i)].status.isHeld { end(publication: i, as: .terminated) }
            heldSubscriptions = []
            heldPublications = []
            isPermissionDialogShowing = false
            isRunning = false
        case .launch:
            // ENGINE-L2
            isRunning = true
        }
        reconcileSources(at: time, into: &batch)
        reconcileHandlers(into: &batch)
        flush(&batch, into: &events)
    }

    /// Fires all pending lost timers (and whatever else falls due before the last of them),
    /// so every found message ends with its lost (ENGINE-F9). Returns the engine's time afterwards.
    @discardableResult
    package mutating func finish(into events: inout [EngineEvent]) -> Int64 {
        while !found.isEmpty, let top = timers.first {
            try! advance(to: max(top.deadline, now), into: &events)
        }
        return now
    }
}
