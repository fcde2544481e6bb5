/// A callback the engine emits, stamped with the virtual time at which it fires.
public struct EngineEvent: Hashable, Sendable {
    /// The callbacks of the GNS API (formats.md §4.3–4.4). The raw value is the `event` name
    /// in output and vectors.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// `GNSPermission` changed handler / Nearby permission: `value` is granted.
        case permissionChanged
        /// `bluetoothPowerErrorHandler(hasError)`: `value` is hasError.
        case bluetoothPowerError
        /// `bluetoothPermissionErrorHandler(hasError)`.
        case bluetoothPermissionError
        /// `microphonePermissionErrorHandler(hasError)`.
        case microphonePermissionError
        /// `messageLostHandler` / `MessageListener.onLost`.
        case lost
        /// `SubscribeCallback.onExpired`.
        case subscriptionExpired
        /// `PublishCallback.onExpired`.
        case publicationExpired
        /// `messageFoundHandler` / `MessageListener.onFound`.
        case found

        /// Rank among events of one batch at one instant (docs/semantics.md, rule O2): state
        /// handlers first, then lost, expiry, found.
        public var rank: Int {
            switch self {
            case .permissionChanged: 0
            case .bluetoothPowerError: 1
            case .bluetoothPermissionError: 2
            case .microphonePermissionError: 3
            case .lost: 4
            case .subscriptionExpired: 5
            case .publicationExpired: 6
            case .found: 7
            }
        }
    }

    /// Virtual time, µs in the scenario's time base.
    public var timeMicros: Int64
    public var kind: Kind
    /// The subscription of found, lost and subscriptionExpired.
    public var subscription: String?
    /// The publication of publicationExpired.
    public var publication: String?
    /// The message of found and lost.
    public var message: Message?
    /// `granted` for permissionChanged, `hasError` for the error handlers.
    public var value: Bool?

    public init(timeMicros: Int64, kind: Kind, subscription: String? = nil, publication: String? = nil,
                message: Message? = nil, value: Bool? = nil) {
        self.timeMicros = timeMicros
        self.kind = kind
        self.subscription = subscription
        self.publication = publication
        self.message = message
        self.value = value
    }

    /// The order of events of one batch (same instant, same cause): kind rank, then
    /// subscription or publication id by UTF-8 bytes, then message.
    public static func batchOrder(_ a: EngineEvent, _ b: EngineEvent) -> Bool {
        if a.kind.rank != b.kind.rank { return a.kind.rank < b.kind.rank }
        let ia = a.subscription ?? a.publication ?? "", ib = b.subscription ?? b.publication ?? ""
        if ia != ib { return ia.utf8.lexicographicallyPrecedes(ib.utf8) }
        switch (a.message, b.message) {
        case let (x?, y?): return x < y
        case (nil, _?): return true
        default: return false
        }
    }
}

/// What the app does, as the engine sees it.
public enum EngineAction: Hashable, Sendable {
    case subscribe(id: String, SubscriptionParams)
    /// Unsubscribe, or release of the subscription object: no callback of it fires afterwards.
    case unsubscribe(id: String)
    case publish(id: String, PublicationParams)
    case unpublish(id: String)
    case changeState(StateChange)
    /// The user stops Nearby for the app from its notification: every publication and
    /// subscription expires at once (`onExpired`, formats.md §4.3).
    case stopNearby
}

/// An input the engine cannot accept. The engine is unchanged when it throws.
public struct EngineInputError: Error, Hashable, Sendable, CustomStringConvertible {
    public var reason: String
    public init(_ reason: String) { self.reason = reason }
    public var description: String { reason }
}
