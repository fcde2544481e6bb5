/// Why a sighting counts or not (`replay --explain`): the engine's own rules, asked without
/// changing anything. Nothing here runs unless asked: the engine's inputs never call it.
extension SubscriptionEngine {
    /// What one sighting does for one subscription.
    public struct SightingVerdict: Hashable, Sendable {
        public var subscription: String
        /// The first rule that stops it counting (docs/spec/engine.md order: the subscription, the state ENGINE-A1 to
        /// ENGINE-A6, then what the sighting stands for ENGINE-R1 to ENGINE-R3); nil when it counts.
        public var stop: CountingStop?
        /// When it counts: the messages it counts as, in the engine's order, each with
        /// whether the sighting finds it now (ENGINE-F1) or is fresh evidence for a message already
        /// found (ENGINE-F2: its lost timer starts again).
        public var messages: [CountedMessage] = []
        /// ENGINE-R3: when the filter stops it, the messages the sighting stands for (none of
        /// them in the subscription's namespace and type), in the engine's order.
        public var standsFor: [Message] = []

        public init(
            subscription: String, stop: CountingStop? = nil, messages: [CountedMessage] = [], standsFor: [Message] = []
        ) {
            self.subscription = subscription
            self.stop = stop
            self.messages = messages
            self.standsFor = standsFor
        }
    }

    public struct CountedMessage: Hashable, Sendable {
        public var message: Message
        public var newlyFound: Bool

        public init(message: Message, newlyFound: Bool) {
            self.message = message
            self.newlyFound = newlyFound
        }
    }

    /// What `sighting` does for each subscription the app has made (the latest object of
    /// each id, ENGINE-L3), by id in UTF-8 byte order. Ask after `advance(to:)` the sighting's time
    /// and before `sight`, which then does exactly this.
    public func explain(_ sighting: Sighting) -> [SightingVerdict] {
        let source = sighting.source
        let t = sighting.timeMicros
        // ENGINE-R1, ENGINE-R2: what the sighting stands for, registered or reserved.
        var stands: [Message] = []
        resolving.forEachMessage(sighting) { stands.append(messages[Int($0)]) }
        let id = sighting.identity
        let reservedType: String? =
            if id.kind == .eddystoneUID && id.count == 16 {
                Message.eddystoneUIDType
            } else if id.kind == .iBeacon && id.count == 20 {
                Message.iBeaconIDType
            } else {
                nil
            }
        if let reservedType {
            stands.append(Message(namespace: Message.reservedNamespace, type: reservedType, content: id.bytes))
        }
        let unresolved: CountingStop =
            switch id.kind {
            case .token: resolving.tokenIndex[id] == nil ? .tokenNotRegistered : .tokenNotAssignedNow
            case .eddystoneEID: .eidNotResolved
            default: .noAttachments
            }
        let ids = subscriptionByID.sorted { $0.key < $1.key }
        return ids.map { _, slot in
            let s = subscriptions[Int(slot)]
            var verdict = SightingVerdict(subscription: s.id)
            if let stop = stop(s, counting: source) {
                verdict.stop = stop
                return verdict
            }
            // ENGINE-A6
            if source == .beacon, profiles.counting[Int(s.profile)].lowPowerBeacons,
                !configuration.lowPowerScan.listens(
                    at: t, since: subscribersByFilter[Int(s.filter)][Int(s.filterPosition)].since)
            {
                verdict.stop = .outsideLowPowerWindow
                return verdict
            }
            guard !stands.isEmpty else {
                verdict.stop = unresolved
                return verdict
            }
            // ENGINE-R3
            let p = s.params
            let namespace = p.messageNamespace.isEmpty ? configuration.projectNamespace : p.messageNamespace
            for m in stands
            where ExactString(m.namespace) == ExactString(namespace)
                && (p.type.isEmpty || ExactString(m.type) == ExactString(p.type))
            {
                let known = index(of: m).map { found[FoundKey(subscription: slot, message: $0)] != nil } ?? false
                if !verdict.messages.contains(where: { $0.message == m }) {
                    verdict.messages.append(CountedMessage(message: m, newlyFound: !known))
                }
            }
            if verdict.messages.isEmpty {
                verdict.stop = .filterMismatch
                verdict.standsFor = stands
            }
            return verdict
        }
    }

    /// The sources the live subscription `id` counts now (ENGINE-A1 to ENGINE-A5), empty for none or one
    /// not live: what a state change took away is what ENGINE-F3 forgets.
    public func countingSources(ofSubscription id: String) -> EvidenceSources {
        guard let slot = subscriptionByID[ExactString(id)] else { return [] }
        let s = subscriptions[Int(slot)]
        return s.status == .live ? profiles.counting[Int(s.profile)].sources : []
    }

    /// When the subscription `id` (its latest object) ends by its TTL (ENGINE-F6), µs; nil for an
    /// infinite TTL or none made.
    public func expiry(ofSubscription id: String) -> Int64? {
        subscriptionByID[ExactString(id)].flatMap { subscriptions[Int($0)].expiresAt }
    }
}
