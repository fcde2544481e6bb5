import NearbyBytes
import NearbyMessages

/// A second engine, deliberately plain, written from docs/spec/engine.md alone: dictionaries and
/// arrays, every rule recomputed from scratch at every step, no indexes, no timer queue. It
/// exists to be compared with `SubscriptionEngine` on random scenarios (`EngineModelTests`);
/// where they disagree, one of them misreads the page.
///
/// Out of its scope: EID resolution (ENGINE-R2A; the resolver has its own tests), so an
/// EID sighting stands for nothing here and the generator makes none.
struct ReferenceModel {
    /// A message by its bytes (ENGINE-R4).
    struct MessageKey: Hashable, Comparable {
        var namespace: [UInt8]
        var type: [UInt8]
        var content: [UInt8]

        init(_ m: Message) {
            namespace = Array(m.namespace.utf8)
            type = Array(m.type.utf8)
            content = m.content
        }

        static func < (a: MessageKey, b: MessageKey) -> Bool {
            if a.namespace != b.namespace { return a.namespace.lexicographicallyPrecedes(b.namespace) }
            if a.type != b.type { return a.type.lexicographicallyPrecedes(b.type) }
            return a.content.lexicographicallyPrecedes(b.content)
        }
    }

    enum Status { case live, expired, released, terminated }

    struct Subscription {
        var id: String
        var params: SubscriptionParams
        var createdAt: Int64
        var expiresAt: Int64?
        var status = Status.live
    }

    struct Publication {
        var id: String
        var params: PublicationParams
        var expiresAt: Int64?
        var status = Status.live
    }

    /// A (subscription, message) pair found, with its evidence (ENGINE-F0).
    struct Found {
        var message: Message
        var lastSeen: [EvidenceSource: Int64]
        var latest: Int64 { lastSeen.values.max()! }
    }

    /// One event, in the shape both engines can be rendered to.
    struct Event: Equatable {
        var time: Int64
        var kind: EngineEvent.Kind
        var id: String?
        var message: Message?
        var value: Bool?
    }

    let registry: Registry
    let lostTimeout: Int64
    let projectNamespace: String
    let lowPowerScan: LowPowerScan
    var state: DeviceState
    var now: Int64 = .min
    var running = true
    var dialogShowing = false
    var subscriptions: [Subscription] = []
    var publications: [Publication] = []
    /// Keyed by subscription index (into `subscriptions`) and message bytes.
    var found: [Int: [MessageKey: Found]] = [:]
    var toldPermission: PermissionState
    var toldErrors: [EngineEvent.Kind: Bool] = [
        .bluetoothPowerError: false, .bluetoothPermissionError: false, .microphonePermissionError: false,
    ]
    var events: [Event] = []

    init(registry: Registry, state: DeviceState, configuration: SubscriptionEngine.Configuration) {
        self.registry = registry
        self.state = state
        lostTimeout = configuration.lostTimeoutMicros
        projectNamespace = configuration.projectNamespace
        lowPowerScan = configuration.lowPowerScan
        toldPermission = state.nearbyPermission
    }

    // MARK: ENGINE-O3

    static func ordered(_ batch: [Event]) -> [Event] {
        batch.sorted { a, b in
            if a.kind.rank != b.kind.rank { return a.kind.rank < b.kind.rank }
            let ia = Array((a.id ?? "").utf8), ib = Array((b.id ?? "").utf8)
            if ia != ib { return ia.lexicographicallyPrecedes(ib) }
            switch (a.message, b.message) {
            case let (x?, y?): return MessageKey(x) < MessageKey(y)
            case (nil, _?): return true
            default: return false
            }
        }
    }

    mutating func emit(_ batch: [Event]) { events += Self.ordered(batch) }

    // MARK: ENGINE-O2: timers

    func isLive(_ s: Subscription, at t: Int64) -> Bool { s.status == .live && !(s.expiresAt.map { $0 <= t } ?? false) }
    func isLive(_ p: Publication, at t: Int64) -> Bool { p.status == .live && !(p.expiresAt.map { $0 <= t } ?? false) }

    /// The earliest instant a timer is due: a lost timeout (ENGINE-F2) or a TTL (ENGINE-F6, ENGINE-P1).
    func nextTimer() -> Int64? {
        var times: [Int64] = []
        for (_, pairs) in found { for (_, f) in pairs { times.append(f.latest + lostTimeout) } }
        for s in subscriptions where s.status == .live { if let e = s.expiresAt { times.append(e) } }
        for p in publications where p.status == .live { if let e = p.expiresAt { times.append(e) } }
        return times.min()
    }

    mutating func advance(to time: Int64) {
        while let d = nextTimer(), d <= time {
            now = d
            var batch: [Event] = []
            // ENGINE-F2
            for (i, pairs) in found {
                for (k, f) in pairs where f.latest + lostTimeout == d {
                    found[i]![k] = nil
                    batch.append(Event(time: d, kind: .lost, id: subscriptions[i].id, message: f.message))
                }
            }
            // ENGINE-F6
            for i in subscriptions.indices where subscriptions[i].status == .live && subscriptions[i].expiresAt == d {
                batch += end(subscription: i, as: .expired, at: d)
                batch.append(Event(time: d, kind: .subscriptionExpired, id: subscriptions[i].id))
            }
            // ENGINE-P1
            for i in publications.indices where publications[i].status == .live && publications[i].expiresAt == d {
                publications[i].status = .expired
                batch.append(Event(time: d, kind: .publicationExpired, id: publications[i].id))
            }
            batch += handlers(at: d)
            emit(batch)
        }
        now = max(now, time)
    }

    /// ENGINE-F5, ENGINE-F6, ENGINE-F7, ENGINE-L1: ends a subscription; an expiry loses what it found.
    mutating func end(subscription i: Int, as status: Status, at t: Int64) -> [Event] {
        let wasLive = subscriptions[i].status == .live
        subscriptions[i].status = status
        let pairs = found[i] ?? [:]
        found[i] = nil
        guard wasLive, status == .expired else { return [] }
        return pairs.values.map { Event(time: t, kind: .lost, id: subscriptions[i].id, message: $0.message) }
    }

    // MARK: ENGINE-V1, ENGINE-L1 to ENGINE-L3, ENGINE-D3

    enum Refusal: Equatable {
        case timeOrder, idInUse, unknownID, notRunning, alreadyRunning, noDialog, invalidParameters
    }

    func refusal(_ action: EngineAction, at t: Int64) -> Refusal? {
        if t < now { return .timeOrder }
        if case .launch = action { return running ? .alreadyRunning : nil }
        if case .changeState = action { return nil }
        if !running { return .notRunning }
        switch action {
        case .subscribe(let id, let p):
            if subscriptions.contains(where: { Array($0.id.utf8) == Array(id.utf8) && isLive($0, at: t) }) {
                return .idInUse
            }
            if p.type.utf16.count > 32 { return .invalidParameters }
            if case .micros(let ttl) = p.strategy.ttl, ttl < 1 || ttl > 86_400_000_000 { return .invalidParameters }
        case .unsubscribe(let id):
            guard let last = subscriptions.last(where: { Array($0.id.utf8) == Array(id.utf8) }),
                last.status == .live || last.status == .expired
            else { return .unknownID }
        case .publish(let id, let p):
            if publications.contains(where: { Array($0.id.utf8) == Array(id.utf8) && isLive($0, at: t) }) {
                return .idInUse
            }
            if p.message.type.utf16.count > 32 || p.message.content.count > 102_400 { return .invalidParameters }
            switch p.strategy.ttl {
            case .infinite: return .invalidParameters
            case .micros(let ttl) where ttl < 1 || ttl > 86_400_000_000: return .invalidParameters
            default: break
            }
        case .unpublish(let id):
            guard let last = publications.last(where: { Array($0.id.utf8) == Array(id.utf8) }),
                last.status == .live || last.status == .expired
            else { return .unknownID }
        case .answerPermission:
            if !dialogShowing { return .noDialog }
        default:
            break
        }
        return nil
    }

    // MARK: actions

    /// Performs `action` at `t`, or returns why it is refused (the model then changes nothing
    /// but its time: the timers due by `t` have fired, as the next input would fire them).
    mutating func perform(_ action: EngineAction, at t: Int64) -> Refusal? {
        if t < now { return .timeOrder }
        advance(to: t)
        if let r = refusal(action, at: t) { return r }
        var batch: [Event] = []
        switch action {
        case .subscribe(let id, let p):
            var s = Subscription(id: id, params: p, createdAt: t)
            if case .micros(let ttl) = p.strategy.ttl { s.expiresAt = t + ttl }
            subscriptions.append(s)
            batch += dialog(id: id, custom: p.permissionRequestHandler, at: t)
        case .unsubscribe(let id):
            let i = subscriptions.lastIndex { Array($0.id.utf8) == Array(id.utf8) }!
            batch += end(subscription: i, as: .released, at: t)
        case .publish(let id, let p):
            var pub = Publication(id: id, params: p)
            if case .micros(let ttl) = p.strategy.ttl { pub.expiresAt = t + ttl }
            publications.append(pub)
            batch += dialog(id: id, custom: p.permissionRequestHandler, at: t)
        case .unpublish(let id):
            let i = publications.lastIndex { Array($0.id.utf8) == Array(id.utf8) }!
            publications[i].status = .released
        case .changeState(let c):
            state.apply(c)
            if state.nearbyPermission != .notDetermined { dialogShowing = false }  // ENGINE-D3
        case .stopNearby:
            // ENGINE-F7
            for i in subscriptions.indices where subscriptions[i].status == .live {
                batch += end(subscription: i, as: .expired, at: t)
                batch.append(Event(time: t, kind: .subscriptionExpired, id: subscriptions[i].id))
            }
            for i in publications.indices where publications[i].status == .live {
                publications[i].status = .expired
                batch.append(Event(time: t, kind: .publicationExpired, id: publications[i].id))
            }
        case .answerPermission(let granted):
            state.nearbyPermission = granted ? .granted : .denied  // ENGINE-D3
            dialogShowing = false
        case .terminate:
            // ENGINE-L1
            for i in subscriptions.indices where subscriptions[i].status == .live || subscriptions[i].status == .expired
            {
                _ = end(subscription: i, as: .terminated, at: t)
            }
            for i in publications.indices where publications[i].status == .live || publications[i].status == .expired {
                publications[i].status = .terminated
            }
            dialogShowing = false
            running = false
        case .launch:
            running = true  // ENGINE-L2
        }
        batch += forgetUncounted(at: t)
        batch += handlers(at: t)
        emit(batch)
        return nil
    }

    /// ENGINE-D1, ENGINE-D4.
    mutating func dialog(id: String, custom: Bool, at t: Int64) -> [Event] {
        switch state.nearbyPermission {
        case .notDetermined where !dialogShowing:
            dialogShowing = true
            return [Event(time: t, kind: .permissionRequest, id: id, value: custom)]
        case .denied:
            return [Event(time: t, kind: .permissionAlert, id: id)]
        default:
            return []
        }
    }

    // MARK: ENGINE-A1 to ENGINE-A6

    /// The sources subscription `s` counts now (ENGINE-A1 to ENGINE-A5), before ENGINE-A6's windows.
    func sources(_ s: Subscription) -> Set<EvidenceSource> {
        guard running, s.status == .live, state.nearbyPermission == .granted else { return [] }  // ENGINE-A1
        let p = s.params
        guard p.strategy.mode.contains(.scan) else { return [] }  // ENGINE-A5
        let fg = state.appState == .foreground
        var out: Set<EvidenceSource> = []
        // ENGINE-A2
        let bleUsable =
            p.strategy.mediums.contains(.ble) && state.bluetoothPowerOn && state.bluetoothPermission == .granted
        if bleUsable && p.deviceTypes.contains(.nearbyDevices) && (fg || p.strategy.allowInBackground) {
            out.insert(.bleToken)
        }  // ENGINE-A3, ENGINE-A4
        if bleUsable && p.deviceTypes.contains(.bleBeacons) && (fg || p.beaconStrategy.allowInBackground) {
            out.insert(.beacon)
            if p.beaconStrategy.includeIBeacons && ranging() { out.insert(.iBeacon) }  // ENGINE-A4
        }
        if p.strategy.mediums.contains(.audio) && state.microphonePermission == .granted && fg
            && p.deviceTypes.contains(.nearbyDevices)
        {
            out.insert(.audioToken)  // ENGINE-A2, ENGINE-A3, ENGINE-A4
        }
        return out
    }

    /// ENGINE-A4: iBeacon ranging needs "when in use" in the foreground, "always" in the background.
    func ranging() -> Bool {
        switch state.locationPermission {
        case .always: true
        case .whenInUse: state.appState == .foreground
        default: false
        }
    }

    /// Whether `s` counts a sighting from `source` at `t` (ENGINE-A1 to ENGINE-A6).
    func counts(_ s: Subscription, _ source: EvidenceSource, at t: Int64) -> Bool {
        guard sources(s).contains(source) else { return false }
        if source == .beacon {
            // ENGINE-A6
            let highPower =
                ranging() && (s.params.beaconStrategy.includeIBeacons || !s.params.beaconStrategy.lowPowerPreferred)
            if !highPower { return (t - s.createdAt) % lowPowerScan.intervalMicros < lowPowerScan.windowMicros }
        }
        return true
    }

    /// ENGINE-F3: forgets the evidence from sources no longer counted; a pair left with none, or
    /// whose timeout has passed, is lost now.
    mutating func forgetUncounted(at t: Int64) -> [Event] {
        var batch: [Event] = []
        for (i, pairs) in found {
            let kept = sources(subscriptions[i])
            for (k, var f) in pairs {
                f.lastSeen = f.lastSeen.filter { kept.contains($0.key) }
                if f.lastSeen.isEmpty || f.latest + lostTimeout <= t {
                    found[i]![k] = nil
                    batch.append(Event(time: t, kind: .lost, id: subscriptions[i].id, message: f.message))
                } else {
                    found[i]![k] = f
                }
            }
        }
        return batch
    }

    // MARK: ENGINE-R1 to ENGINE-R4

    /// The messages a sighting stands for (ENGINE-R1, ENGINE-R2), namespace "" made the project's (ENGINE-R3A).
    func messages(for sighting: Sighting) -> [Message] {
        var out: [Message] = []
        let t = sighting.timeMicros
        func covers(_ from: Int64?, _ until: Int64?) -> Bool {
            (from.map { t >= $0 } ?? true) && (until.map { t < $0 } ?? true)
        }
        switch sighting.identity.kind {
        case .token:
            for p in registry.publications where covers(p.fromMicros, p.untilMicros) {
                for a in p.tokens
                where a.token == sighting.identity.bytes && covers(a.fromMicros, a.untilMicros)
                    && a.mediums.contains(sighting.medium == .ble ? .ble : .audio)
                {
                    out.append(p.message)
                }
            }
        case .eddystoneUID, .iBeacon, .altBeacon:
            for b in registry.beacons where b.ephemeralID == nil && b.advertisedID == sighting.identity {
                out += b.attachments
            }
            if sighting.identity.kind == .eddystoneUID && sighting.identity.count == 16 {
                out.append(
                    Message(
                        namespace: "__reserved_namespace", type: "__eddystone_uid", content: sighting.identity.bytes))
            }
            if sighting.identity.kind == .iBeacon && sighting.identity.count == 20 {
                out.append(
                    Message(namespace: "__reserved_namespace", type: "__i_beacon_id", content: sighting.identity.bytes))
            }
        case .eddystoneEID:
            break
        }
        return out.map {
            $0.namespace.isEmpty ? Message(namespace: projectNamespace, type: $0.type, content: $0.content) : $0
        }
    }

    /// ENGINE-R3.
    func selects(_ s: Subscription, _ m: Message) -> Bool {
        let ns = s.params.messageNamespace.isEmpty ? projectNamespace : s.params.messageNamespace
        return Array(m.namespace.utf8) == Array(ns.utf8)
            && (s.params.type.isEmpty || Array(m.type.utf8) == Array(s.params.type.utf8))
    }

    mutating func sight(_ sighting: Sighting) {
        let t = sighting.timeMicros
        advance(to: t)
        let source = sighting.source
        var batch: [Event] = []
        for m in messages(for: sighting) {
            let k = MessageKey(m)
            for i in subscriptions.indices where selects(subscriptions[i], m) && counts(subscriptions[i], source, at: t)
            {
                if var f = found[i, default: [:]][k] {
                    f.lastSeen[source] = t  // ENGINE-F2
                    found[i]![k] = f
                } else {
                    found[i, default: [:]][k] = Found(message: m, lastSeen: [source: t])  // ENGINE-F1
                    batch.append(Event(time: t, kind: .found, id: subscriptions[i].id, message: m))
                }
            }
        }
        emit(batch)
    }

    /// ENGINE-F9: without an end, time runs until every pending lost has fired.
    mutating func finish() {
        while !found.values.allSatisfy(\.isEmpty), let d = nextTimer() { advance(to: d) }
    }

    // MARK: ENGINE-H1 to ENGINE-H5

    mutating func handlers(at t: Int64) -> [Event] {
        let fg = state.appState == .foreground
        var ble = false, mic = false
        for s in subscriptions where s.status == .live {
            let p = s.params
            if p.strategy.mediums.contains(.ble) {
                if p.deviceTypes.contains(.nearbyDevices) && (fg || p.strategy.allowInBackground) { ble = true }
                if p.deviceTypes.contains(.bleBeacons) && p.strategy.mode.contains(.scan)
                    && (fg || p.beaconStrategy.allowInBackground)
                {
                    ble = true
                }
            }
            if p.strategy.mediums.contains(.audio) && p.strategy.mode.contains(.scan)
                && p.deviceTypes.contains(.nearbyDevices) && fg
            {
                mic = true
            }
        }
        for p in publications where p.status == .live {
            if p.params.strategy.mediums.contains(.ble) && (fg || p.params.strategy.allowInBackground) { ble = true }
            if p.params.strategy.mediums.contains(.audio) && p.params.strategy.mode.contains(.scan) && fg { mic = true }
        }
        let on = running && state.nearbyPermission == .granted
        let now: [EngineEvent.Kind: Bool] = [
            .bluetoothPowerError: on && ble && !state.bluetoothPowerOn,
            .bluetoothPermissionError: on && ble && state.bluetoothPermission == .denied,
            .microphonePermissionError: on && mic && state.microphonePermission == .denied,
        ]
        var batch: [Event] = []
        if running {
            if state.nearbyPermission != toldPermission {
                batch.append(Event(time: t, kind: .permissionChanged, value: state.nearbyPermission == .granted))
            }
            for (kind, v) in now where toldErrors[kind] != v { batch.append(Event(time: t, kind: kind, value: v)) }
        }
        toldPermission = state.nearbyPermission
        toldErrors = now
        return batch
    }
}
