import NearbyMessages
import NearbySecurity

/// A second engine, deliberately plain, written from docs/spec/engine.md alone: dictionaries and
/// arrays, every rule recomputed from scratch at every step, no indexes, no timer queue. It
/// exists to be compared with `SubscriptionEngine` on random scenarios (`EngineModelTests`,
/// `ReplayModelTests`) and to write the expected events of `Vectors/scenarios/model-*.json`
/// (`ModelVectorTests`); where the two disagree, one of them misreads the page.
///
/// What it shares with the product is the scenario's data: the input types (`EngineAction`,
/// `SubscriptionParams`, `StateChange`, `Sighting`, `Registry`'s publications and beacons,
/// `Message` as three fields) and the names of the callbacks (`EngineEvent.Kind`). Everything
/// the rules decide is its own code: the evidence a sighting is (ENGINE-F0), the order of a
/// batch (ENGINE-O3), how a state change applies, when two messages are one (ENGINE-R4: by
/// bytes, never by `Message ==`), the EID resolution window (ENGINE-R2A, after
/// eddystone-crypto.md EID-CRYPTO-7 to EID-CRYPTO-10) and the merge of a replay's inputs
/// (ENGINE-O1A). Only the EID function itself (EID-CRYPTO-2, EID-CRYPTO-3: AES-128 of a
/// counter) is the product's `EIDGenerator`, which has its own published test vectors.
package struct ReferenceModel {
    /// The four sources of evidence (ENGINE-F0).
    package enum Source: Int, Hashable, CaseIterable { case bleToken, audioToken, beacon, iBeacon }

    /// ENGINE-F0: a token over BLE, a token over audio, a beacon (Eddystone-UID, AltBeacon,
    /// Eddystone-EID), an iBeacon.
    package static func source(of s: Sighting) -> Source {
        switch s.identity.kind {
        case .token: s.medium == .audio ? .audioToken : .bleToken
        case .iBeacon: .iBeacon
        case .eddystoneUID, .altBeacon, .eddystoneEID: .beacon
        }
    }

    /// A message by its bytes (ENGINE-R4).
    package struct MessageKey: Hashable, Comparable {
        package var namespace: [UInt8]
        package var type: [UInt8]
        package var content: [UInt8]

        package init(_ m: Message) {
            namespace = Array(m.namespace.utf8)
            type = Array(m.type.utf8)
            content = m.content
        }

        package static func < (a: MessageKey, b: MessageKey) -> Bool {
            if a.namespace != b.namespace { return a.namespace.lexicographicallyPrecedes(b.namespace) }
            if a.type != b.type { return a.type.lexicographicallyPrecedes(b.type) }
            return a.content.lexicographicallyPrecedes(b.content)
        }
    }

    /// An id by its bytes (ENGINE-L3, ENGINE-R4).
    package static func same(_ a: String, _ b: String) -> Bool { Array(a.utf8) == Array(b.utf8) }

    /// The device state the rules read, applied field by field.
    package struct Device: Equatable {
        package var nearby = PermissionState.granted
        package var bluetoothOn = true
        package var bluetooth = PermissionState.granted
        package var microphone = PermissionState.granted
        package var location = LocationPermission.always
        package var foreground = true

        package init(_ s: DeviceState) {
            nearby = s.nearbyPermission
            bluetoothOn = s.bluetoothPowerOn
            bluetooth = s.bluetoothPermission
            microphone = s.microphonePermission
            location = s.locationPermission
            foreground = s.appState == .foreground
        }

        package mutating func apply(_ c: StateChange) {
            nearby = c.nearbyPermission ?? nearby
            bluetoothOn = c.bluetoothPowerOn ?? bluetoothOn
            bluetooth = c.bluetoothPermission ?? bluetooth
            microphone = c.microphonePermission ?? microphone
            location = c.locationPermission ?? location
            if let a = c.appState { foreground = a == .foreground }
        }
    }

    package enum Status { case live, expired, released, terminated }

    package struct Subscription {
        package var id: String
        package var params: SubscriptionParams
        package var createdAt: Int64
        package var expiresAt: Int64?
        package var status = Status.live
    }

    package struct Publication {
        package var id: String
        package var params: PublicationParams
        package var expiresAt: Int64?
        package var status = Status.live
    }

    /// A (subscription, message) pair found, with its evidence (ENGINE-F0).
    package struct Found {
        package var message: Message
        package var lastSeen: [Source: Int64]
        package var latest: Int64 { lastSeen.values.max()! }
    }

    /// Why an event fired, for naming and citing the vectors (`ModelVectorTests`).
    package enum Cause: String, Hashable {
        case sighting, timeout, stateChange, ttl, stopNearby, release, dialog, answer, handler
    }

    /// One event, in the shape both engines can be rendered to.
    package struct Event: Equatable {
        package var time: Int64
        package var kind: EngineEvent.Kind
        package var id: String?
        package var message: Message?
        package var value: Bool?
        package var cause: Cause = .sighting
        /// For a found: the source that found it.
        package var source: Source?
        /// For a found: the kind of identity sighted.
        package var via: SightingIdentity.Kind?
        /// The id names a publication (publicationExpired, or a dialog a publication showed).
        package var publication = false

        package static func == (a: Event, b: Event) -> Bool {
            a.time == b.time && a.kind == b.kind && a.id.map { Array($0.utf8) } == b.id.map { Array($0.utf8) }
                && a.message.map(MessageKey.init) == b.message.map(MessageKey.init) && a.value == b.value
                && a.publication == b.publication
        }
    }

    package let registry: Registry
    package let lostTimeout: Int64
    package let projectNamespace: String
    package let window: Int64, interval: Int64
    /// Where each EDDYSTONE_EID registration's clock was read, in scenario µs (ENGINE-R2A).
    package let eidRegisteredAt: [Int: Int64]
    package var device: Device
    package var now: Int64 = .min
    package var running = true
    package var dialogShowing = false
    package var subscriptions: [Subscription] = []
    package var publications: [Publication] = []
    /// Keyed by subscription index (into `subscriptions`) and message bytes.
    package var found: [Int: [MessageKey: Found]] = [:]
    package var toldPermission: PermissionState
    package var toldErrors: [EngineEvent.Kind: Bool] = [
        .bluetoothPowerError: false, .bluetoothPermissionError: false, .microphonePermissionError: false,
    ]
    package var events: [Event] = []
    /// Sightings that counted, by source (for the tallies and the vectors' flags).
    package var counted: [Source: Int] = [:]
    /// EID sightings that resolved to at least one registered beacon.
    package var eidResolved = 0

    /// - Parameter originUnixMicros: the Unix time of scenario time 0, which places EID
    ///   registrations given in Unix time (docs/scenario-format.md, `timeOrigin`).
    package init(
        registry: Registry, state: DeviceState, lostTimeoutMicros: Int64, projectNamespace: String,
        lowPowerScan: LowPowerScan, originUnixMicros: Int64 = 0
    ) {
        self.registry = registry
        device = Device(state)
        lostTimeout = lostTimeoutMicros
        self.projectNamespace = projectNamespace
        window = lowPowerScan.windowMicros
        interval = lowPowerScan.intervalMicros
        toldPermission = state.nearbyPermission
        var at: [Int: Int64] = [:]
        for (i, b) in registry.beacons.enumerated() {
            switch b.ephemeralID?.registeredAt {
            case .scenarioMicros(let t)?: at[i] = t
            case .unixMicros(let u)?: at[i] = u - originUnixMicros
            case nil: break
            }
        }
        eidRegisteredAt = at
    }

    package init(
        registry: Registry, state: DeviceState, configuration: SubscriptionEngine.Configuration, origin: Int64 = 0
    ) {
        self.init(
            registry: registry, state: state, lostTimeoutMicros: configuration.lostTimeoutMicros,
            projectNamespace: configuration.projectNamespace, lowPowerScan: configuration.lowPowerScan,
            originUnixMicros: origin)
    }

    // MARK: ENGINE-O3

    package static let order: [EngineEvent.Kind] = [
        .permissionRequest, .permissionAlert, .permissionChanged, .bluetoothPowerError, .bluetoothPermissionError,
        .microphonePermissionError, .lost, .subscriptionExpired, .publicationExpired, .found,
    ]

    package static func ordered(_ batch: [Event]) -> [Event] {
        batch.sorted { a, b in
            let ra = order.firstIndex(of: a.kind)!, rb = order.firstIndex(of: b.kind)!
            if ra != rb { return ra < rb }
            let ia = Array((a.id ?? "").utf8), ib = Array((b.id ?? "").utf8)
            if ia != ib { return ia.lexicographicallyPrecedes(ib) }
            switch (a.message, b.message) {
            case let (x?, y?): return MessageKey(x) < MessageKey(y)
            case (nil, _?): return true
            default: return false
            }
        }
    }

    package mutating func emit(_ batch: [Event]) { events += Self.ordered(batch) }

    // MARK: ENGINE-O2: timers

    package func isLive(_ s: Subscription, at t: Int64) -> Bool {
        s.status == .live && !(s.expiresAt.map { $0 <= t } ?? false)
    }
    package func isLive(_ p: Publication, at t: Int64) -> Bool {
        p.status == .live && !(p.expiresAt.map { $0 <= t } ?? false)
    }

    /// The earliest instant a timer is due: a lost timeout (ENGINE-F2) or a TTL (ENGINE-F6, ENGINE-P1).
    package func nextTimer() -> Int64? {
        var times: [Int64] = []
        for (_, pairs) in found { for (_, f) in pairs { times.append(f.latest + lostTimeout) } }
        for s in subscriptions where s.status == .live { if let e = s.expiresAt { times.append(e) } }
        for p in publications where p.status == .live { if let e = p.expiresAt { times.append(e) } }
        return times.min()
    }

    /// Fires every timer due by `time`, instant by instant, each instant one batch (ENGINE-O2).
    package mutating func advance(to time: Int64) {
        while let d = nextTimer(), d <= time {
            now = d
            var batch: [Event] = []
            // ENGINE-F2
            for (i, pairs) in found {
                for (k, f) in pairs where f.latest + lostTimeout == d {
                    found[i]![k] = nil
                    batch.append(
                        Event(time: d, kind: .lost, id: subscriptions[i].id, message: f.message, cause: .timeout))
                }
            }
            // ENGINE-F6
            for i in subscriptions.indices where subscriptions[i].status == .live && subscriptions[i].expiresAt == d {
                batch += end(subscription: i, as: .expired, at: d, cause: .ttl)
                batch.append(Event(time: d, kind: .subscriptionExpired, id: subscriptions[i].id, cause: .ttl))
            }
            // ENGINE-P1
            for i in publications.indices where publications[i].status == .live && publications[i].expiresAt == d {
                publications[i].status = .expired
                batch.append(
                    Event(time: d, kind: .publicationExpired, id: publications[i].id, cause: .ttl, publication: true))
            }
            batch += handlers(at: d)
            emit(batch)
        }
        now = max(now, time)
    }

    /// ENGINE-F5, ENGINE-F6, ENGINE-F7, ENGINE-L1: ends a subscription; an expiry loses what it found.
    package mutating func end(subscription i: Int, as status: Status, at t: Int64, cause: Cause) -> [Event] {
        let wasLive = subscriptions[i].status == .live
        subscriptions[i].status = status
        let pairs = found[i] ?? [:]
        found[i] = nil
        guard wasLive, status == .expired else { return [] }
        return pairs.values.map {
            Event(time: t, kind: .lost, id: subscriptions[i].id, message: $0.message, cause: cause)
        }
    }

    // MARK: ENGINE-V1, ENGINE-L1 to ENGINE-L3, ENGINE-D3

    package enum Refusal: Equatable {
        case timeOrder, idInUse, unknownID, notRunning, alreadyRunning, noDialog, invalidParameters
    }

    package static let maxTTL: Int64 = 86_400_000_000

    package func refusal(_ action: EngineAction, at t: Int64) -> Refusal? {
        if t < now { return .timeOrder }
        if case .launch = action { return running ? .alreadyRunning : nil }
        if case .changeState = action { return nil }
        if !running { return .notRunning }
        switch action {
        case .subscribe(let id, let p):
            if subscriptions.contains(where: { Self.same($0.id, id) && isLive($0, at: t) }) { return .idInUse }
            if p.type.utf16.count > 32 { return .invalidParameters }
            if case .micros(let ttl) = p.strategy.ttl, ttl < 1 || ttl > Self.maxTTL { return .invalidParameters }
        case .unsubscribe(let id):
            guard let last = subscriptions.last(where: { Self.same($0.id, id) }),
                last.status == .live || last.status == .expired
            else { return .unknownID }
        case .publish(let id, let p):
            if publications.contains(where: { Self.same($0.id, id) && isLive($0, at: t) }) { return .idInUse }
            if p.message.type.utf16.count > 32 || p.message.content.count > 102_400 { return .invalidParameters }
            switch p.strategy.ttl {
            case .infinite: return .invalidParameters
            case .micros(let ttl) where ttl < 1 || ttl > Self.maxTTL: return .invalidParameters
            default: break
            }
        case .unpublish(let id):
            guard let last = publications.last(where: { Self.same($0.id, id) }),
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
    package mutating func perform(_ action: EngineAction, at t: Int64) -> Refusal? {
        if t < now { return .timeOrder }
        advance(to: t)
        if let r = refusal(action, at: t) { return r }
        var batch: [Event] = []
        var cause = Cause.stateChange
        switch action {
        case .subscribe(let id, let p):
            var s = Subscription(id: id, params: p, createdAt: t)
            if case .micros(let ttl) = p.strategy.ttl { s.expiresAt = t + ttl }
            subscriptions.append(s)
            batch += dialog(id: id, custom: p.permissionRequestHandler, publication: false, at: t)
        case .unsubscribe(let id):
            let i = subscriptions.lastIndex { Self.same($0.id, id) }!
            batch += end(subscription: i, as: .released, at: t, cause: .release)
        case .publish(let id, let p):
            var pub = Publication(id: id, params: p)
            if case .micros(let ttl) = p.strategy.ttl { pub.expiresAt = t + ttl }
            publications.append(pub)
            batch += dialog(id: id, custom: p.permissionRequestHandler, publication: true, at: t)
        case .unpublish(let id):
            let i = publications.lastIndex { Self.same($0.id, id) }!
            publications[i].status = .released
        case .changeState(let c):
            device.apply(c)
            if device.nearby != .notDetermined { dialogShowing = false }  // ENGINE-D3
        case .stopNearby:
            // ENGINE-F7
            cause = .stopNearby
            for i in subscriptions.indices where subscriptions[i].status == .live {
                batch += end(subscription: i, as: .expired, at: t, cause: .stopNearby)
                batch.append(Event(time: t, kind: .subscriptionExpired, id: subscriptions[i].id, cause: .stopNearby))
            }
            for i in publications.indices where publications[i].status == .live {
                publications[i].status = .expired
                batch.append(
                    Event(
                        time: t, kind: .publicationExpired, id: publications[i].id, cause: .stopNearby,
                        publication: true))
            }
        case .answerPermission(let granted):
            device.nearby = granted ? .granted : .denied  // ENGINE-D3
            dialogShowing = false
            cause = .answer
        case .terminate:
            // ENGINE-L1
            for i in subscriptions.indices where subscriptions[i].status == .live || subscriptions[i].status == .expired
            {
                _ = end(subscription: i, as: .terminated, at: t, cause: .release)
            }
            for i in publications.indices where publications[i].status == .live || publications[i].status == .expired {
                publications[i].status = .terminated
            }
            dialogShowing = false
            running = false
        case .launch:
            running = true  // ENGINE-L2
        }
        batch += forgetUncounted(at: t, cause: cause)
        batch += handlers(at: t)
        emit(batch)
        return nil
    }

    /// ENGINE-D1, ENGINE-D4.
    package mutating func dialog(id: String, custom: Bool, publication: Bool, at t: Int64) -> [Event] {
        switch device.nearby {
        case .notDetermined where !dialogShowing:
            dialogShowing = true
            return [
                Event(
                    time: t, kind: .permissionRequest, id: id, value: custom, cause: .dialog, publication: publication)
            ]
        case .denied:
            return [Event(time: t, kind: .permissionAlert, id: id, cause: .dialog, publication: publication)]
        default:
            return []
        }
    }

    // MARK: ENGINE-A1 to ENGINE-A6

    /// The sources subscription `s` counts now (ENGINE-A1 to ENGINE-A5), before ENGINE-A6's windows.
    package func sources(_ s: Subscription) -> Set<Source> {
        guard running, s.status == .live, device.nearby == .granted else { return [] }  // ENGINE-A1
        let p = s.params
        guard p.strategy.mode.contains(.scan) else { return [] }  // ENGINE-A5
        let fg = device.foreground
        var out: Set<Source> = []
        // ENGINE-A2
        let bleUsable = p.strategy.mediums.contains(.ble) && device.bluetoothOn && device.bluetooth == .granted
        if bleUsable && p.deviceTypes.contains(.nearbyDevices) && (fg || p.strategy.allowInBackground) {
            out.insert(.bleToken)
        }  // ENGINE-A3, ENGINE-A4
        if bleUsable && p.deviceTypes.contains(.bleBeacons) && (fg || p.beaconStrategy.allowInBackground) {
            out.insert(.beacon)
            if p.beaconStrategy.includeIBeacons && ranging() { out.insert(.iBeacon) }  // ENGINE-A4
        }
        if p.strategy.mediums.contains(.audio) && device.microphone == .granted && fg
            && p.deviceTypes.contains(.nearbyDevices)
        {
            out.insert(.audioToken)  // ENGINE-A2, ENGINE-A3, ENGINE-A4
        }
        return out
    }

    /// ENGINE-A4: iBeacon ranging needs "when in use" in the foreground, "always" in the background.
    package func ranging() -> Bool {
        switch device.location {
        case .always: true
        case .whenInUse: device.foreground
        default: false
        }
    }

    /// Whether a duty-cycled scan of `s` is between windows at `t` (ENGINE-A6).
    package func outsideWindow(_ s: Subscription, at t: Int64) -> Bool {
        let highPower =
            ranging() && (s.params.beaconStrategy.includeIBeacons || !s.params.beaconStrategy.lowPowerPreferred)
        return !highPower && (t - s.createdAt) % interval >= window
    }

    /// Whether `s` counts a sighting from `source` at `t` (ENGINE-A1 to ENGINE-A6).
    package func counts(_ s: Subscription, _ source: Source, at t: Int64) -> Bool {
        guard sources(s).contains(source) else { return false }
        return source != .beacon || !outsideWindow(s, at: t)
    }

    /// ENGINE-F3: forgets the evidence from sources no longer counted; a pair left with none, or
    /// whose timeout has passed, is lost now.
    package mutating func forgetUncounted(at t: Int64, cause: Cause) -> [Event] {
        var batch: [Event] = []
        for (i, pairs) in found {
            let kept = sources(subscriptions[i])
            for (k, var f) in pairs {
                f.lastSeen = f.lastSeen.filter { kept.contains($0.key) }
                if f.lastSeen.isEmpty || f.latest + lostTimeout <= t {
                    found[i]![k] = nil
                    batch.append(Event(time: t, kind: .lost, id: subscriptions[i].id, message: f.message, cause: cause))
                } else {
                    found[i]![k] = f
                }
            }
        }
        return batch
    }

    // MARK: ENGINE-R1 to ENGINE-R4

    package static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 { a >= 0 ? a / b : -((-a + b - 1) / b) }

    /// ENGINE-R2A, after EID-CRYPTO-7 to EID-CRYPTO-10: the registered EID beacons (indexes
    /// into `registry.beacons`) whose EID of a period in the window around the expected one is
    /// `eid`. The clock should read C₀ + ⌊t − t₀⌋ s, in period P = ⌊C / 2^K⌋; the window is
    /// w = 1 + ⌈(150 ppm · |t − t₀| + 1 s) / 2^K⌉ periods either side, at most half the clock's
    /// periods; the clock is 32 bits and wraps.
    package func resolveEID(_ eid: [UInt8], at t: Int64) -> [Int] {
        guard eid.count == 8 else { return [] }
        var out: [Int] = []
        for (i, b) in registry.beacons.enumerated() {
            guard let e = b.ephemeralID, let t0 = eidRegisteredAt[i] else { continue }
            let dt = t - t0
            let clock = Int64(e.initialClockValue) + Self.floorDiv(dt, 1_000_000)
            let period = Int64(1) << Int64(e.rotationExponent)
            let p = Self.floorDiv(clock, period)
            // Units of 10^-12 s: 150 ppm of |dt| µs is 150·|dt|; one second is 10^12.
            let unit: Int64 = 1_000_000_000_000
            let spread = 150 * dt.magnitude + UInt64(unit)
            let perPeriod = UInt64(period) * UInt64(unit)
            var w = 1 + Int64((spread + perPeriod - 1) / perPeriod)
            let periods = Int64(1) << (32 - Int64(e.rotationExponent))
            w = min(w, (periods - 1) / 2)
            guard let g = try? EIDGenerator(identityKey: e.identityKey, exponent: e.rotationExponent) else { continue }
            for q in (p - w)...(p + w) {
                let start = UInt32(truncatingIfNeeded: q &* period)
                if g.eid(at: start) == eid {
                    out.append(i)
                    break
                }
            }
        }
        return out
    }

    /// The messages a sighting stands for (ENGINE-R1, ENGINE-R2, ENGINE-R2A), namespace "" made
    /// the project's (ENGINE-R3A).
    package mutating func messages(for sighting: Sighting) -> [Message] {
        var out: [Message] = []
        let t = sighting.timeMicros
        func covers(_ from: Int64?, _ until: Int64?) -> Bool {
            (from.map { t >= $0 } ?? true) && (until.map { t < $0 } ?? true)
        }
        let bytes = sighting.identity.bytes
        switch sighting.identity.kind {
        case .token:
            for p in registry.publications where covers(p.fromMicros, p.untilMicros) {
                for a in p.tokens
                where a.token == bytes && covers(a.fromMicros, a.untilMicros)
                    && a.mediums.contains(sighting.medium == .ble ? .ble : .audio)
                {
                    out.append(p.message)
                }
            }
        case .eddystoneUID, .iBeacon, .altBeacon:
            for b in registry.beacons
            where b.ephemeralID == nil && b.advertisedID.kind == sighting.identity.kind && b.advertisedID.bytes == bytes
            {
                out += b.attachments
            }
            if sighting.identity.kind == .eddystoneUID && bytes.count == 16 {
                out.append(Message(namespace: "__reserved_namespace", type: "__eddystone_uid", content: bytes))
            }
            if sighting.identity.kind == .iBeacon && bytes.count == 20 {
                out.append(Message(namespace: "__reserved_namespace", type: "__i_beacon_id", content: bytes))
            }
        case .eddystoneEID:
            let matches = resolveEID(bytes, at: t)
            if !matches.isEmpty { eidResolved += 1 }
            for i in matches { out += registry.beacons[i].attachments }
        }
        return out.map {
            $0.namespace.isEmpty ? Message(namespace: projectNamespace, type: $0.type, content: $0.content) : $0
        }
    }

    /// ENGINE-R3.
    package func selects(_ s: Subscription, _ m: Message) -> Bool {
        let ns = s.params.messageNamespace.isEmpty ? projectNamespace : s.params.messageNamespace
        return Self.same(m.namespace, ns) && (s.params.type.isEmpty || Self.same(m.type, s.params.type))
    }

    package mutating func sight(_ sighting: Sighting) {
        let t = sighting.timeMicros
        advance(to: t)
        let source = Self.source(of: sighting)
        var batch: [Event] = []
        var didCount = false
        for m in messages(for: sighting) {
            let k = MessageKey(m)
            for i in subscriptions.indices where selects(subscriptions[i], m) && counts(subscriptions[i], source, at: t)
            {
                didCount = true
                if var f = found[i, default: [:]][k] {
                    f.lastSeen[source] = t  // ENGINE-F2
                    found[i]![k] = f
                } else {
                    found[i, default: [:]][k] = Found(message: m, lastSeen: [source: t])  // ENGINE-F1
                    batch.append(
                        Event(
                            time: t, kind: .found, id: subscriptions[i].id, message: m, source: source,
                            via: sighting.identity.kind))
                }
            }
        }
        if didCount { counted[source, default: 0] += 1 }
        emit(batch)
    }

    /// ENGINE-F9: without an end, time runs until every pending lost has fired; with one, exactly to it.
    package mutating func finish(end: Int64? = nil) {
        if let end {
            advance(to: max(end, now))
            return
        }
        while !found.values.allSatisfy(\.isEmpty), let d = nextTimer() { advance(to: d) }
    }

    // MARK: ENGINE-O1A

    /// One input of a replay: a scenario event (an action or a `sighting` event) or a
    /// sighting of a capture.
    package enum ReplayInput {
        case action(Int64, EngineAction)
        case scenarioSighting(Sighting)
        case captureSighting(Sighting, capture: Int, record: Int)

        package var time: Int64 {
            switch self {
            case .action(let t, _): t
            case .scenarioSighting(let s), .captureSighting(let s, _, _): s.timeMicros
            }
        }
    }

    /// ENGINE-O1A: by time; at one microsecond the scenario's events in file order, then the
    /// captures' sightings by capture, then record. (Sound files come after; none here.)
    package static func merged(_ inputs: [ReplayInput]) -> [ReplayInput] {
        func rank(_ i: ReplayInput) -> (Int, Int, Int) {
            switch i {
            case .action, .scenarioSighting: (0, 0, 0)
            case .captureSighting(_, let c, let r): (1, c, r)
            }
        }
        return inputs.enumerated().sorted { a, b in
            if a.element.time != b.element.time { return a.element.time < b.element.time }
            let ra = rank(a.element), rb = rank(b.element)
            if ra != rb { return ra < rb }
            return a.offset < b.offset
        }.map(\.element)
    }

    /// Runs a replay's inputs, merged by ENGINE-O1A (every action accepted), to `end` or to the last lost.
    package mutating func replay(_ inputs: [ReplayInput], end: Int64?) {
        for input in Self.merged(inputs) {
            switch input {
            case .action(let t, let a): _ = perform(a, at: t)
            case .scenarioSighting(let s), .captureSighting(let s, _, _): sight(s)
            }
        }
        finish(end: end)
    }

    // MARK: ENGINE-H1 to ENGINE-H5

    package mutating func handlers(at t: Int64) -> [Event] {
        let fg = device.foreground
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
        let on = running && device.nearby == .granted
        let now: [EngineEvent.Kind: Bool] = [
            .bluetoothPowerError: on && ble && !device.bluetoothOn,
            .bluetoothPermissionError: on && ble && device.bluetooth == .denied,
            .microphonePermissionError: on && mic && device.microphone == .denied,
        ]
        var batch: [Event] = []
        if running {
            if device.nearby != toldPermission {
                batch.append(
                    Event(time: t, kind: .permissionChanged, value: device.nearby == .granted, cause: .handler))
            }
            for (kind, v) in now where toldErrors[kind] != v {
                batch.append(Event(time: t, kind: kind, value: v, cause: .handler))
            }
        }
        toldPermission = device.nearby
        toldErrors = now
        return batch
    }
}
