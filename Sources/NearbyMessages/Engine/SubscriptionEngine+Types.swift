/// The engine's configuration and the records it keeps per subscription, publication and filter.
extension SubscriptionEngine {
    public struct Configuration: Hashable, Sendable {
        /// How long after its last counted sighting a message is lost, µs (ENGINE-F2; default 10 s).
        public var lostTimeoutMicros: Int64
        /// The observer app's project namespace: what namespace "" means, in a subscription
        /// and in a registry message alike (ENGINE-R3A).
        public var projectNamespace: String
        /// The low-power beacon scan's duty cycle (ENGINE-A6).
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

    /// Where a publication or subscription object stands (ENGINE-F5 to ENGINE-F7, ENGINE-L1, ENGINE-L3).
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
        /// The filter it selects messages by (ENGINE-R3), an index into `subscribersByFilter`.
        var filter: Int32
        /// Its counting profile (ENGINE-A1 to ENGINE-A6), an index into `profiles`.
        var profile: Int32
        /// While live: its place in its filter's subscribers and in its profile's members.
        var filterPosition: Int32 = 0
        var profilePosition: Int32 = 0
        /// When its TTL ends it (ENGINE-F6), µs; nil for an infinite TTL.
        var expiresAt: Int64?
        var status = Status.live
        /// When it ended (ENGINE-F5 to ENGINE-F7, ENGINE-L1), µs.
        var endedAt: Int64?
    }

    /// A live subscription in the list of the filter it selects by (ENGINE-R3), with its counting
    /// profile (ENGINE-A1 to ENGINE-A6).
    struct Subscriber: Sendable, BitwiseCopyable {
        /// Its index in `subscriptions`.
        let slot: Int32
        /// Its index in `profiles`.
        let profile: Int32
        /// When it was made: the start of its low-power scan's windows, µs.
        let since: Int64
    }

    struct Publication: Sendable {
        var id: String
        var params: PublicationParams
        /// When its TTL ends it (ENGINE-P1), µs.
        var expiresAt: Int64?
        var status = Status.live
    }

    /// A subscription's filter (ENGINE-R3, ENGINE-R3A): the namespace it means (project namespace for "") and a
    /// type ("" for every type of the namespace), compared by UTF-8 bytes (ENGINE-R4).
    struct FilterKey: Hashable, Sendable {
        var namespace: ExactString
        var type: ExactString
    }

    /// The filters that select a message (ENGINE-R3): its exact (namespace, type) and, for a typed
    /// message, its namespace's every-type filter.
    struct MessageFilters: Sendable {
        var exact: Int32
        var everyType: Int32?
    }
}
