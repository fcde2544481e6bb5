/// A callback the engine emits, stamped with the virtual time at which it fires.
public struct EngineEvent: Hashable, Sendable {
    /// The callbacks of the GNS API (ENGINE-O3 orders them). The raw value is the `event` name
    /// in output and vectors.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// The consent dialog is shown for the publication or subscription just made while the
        /// Nearby permission was not determined (ENGINE-D1): `value` is true when
        /// the app's `permissionRequestHandler` was called instead of Nearby's own dialog.
        case permissionRequest
        /// Nearby's alert that discovery is off, shown for a publication or subscription made
        /// while the Nearby permission is denied (ENGINE-D4).
        case permissionAlert
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

        /// Rank among events of one batch at one instant (ENGINE-O3): the
        /// dialogs, state handlers, then lost, expiry, found.
        public var rank: Int {
            switch self {
            case .permissionRequest: 0
            case .permissionAlert: 1
            case .permissionChanged: 2
            case .bluetoothPowerError: 3
            case .bluetoothPermissionError: 4
            case .microphonePermissionError: 5
            case .lost: 6
            case .subscriptionExpired: 7
            case .publicationExpired: 8
            case .found: 9
            }
        }
    }

    /// Virtual time, µs in the scenario's time base.
    public var timeMicros: Int64
    public var kind: Kind
    /// The subscription of found, lost and subscriptionExpired (and of the dialogs it caused).
    public var subscription: String?
    /// The publication of publicationExpired (and of the dialogs it caused).
    public var publication: String?
    /// The message of found and lost.
    public var message: Message?
    /// `granted` for permissionChanged, `hasError` for the error handlers, `custom` for
    /// permissionRequest.
    public var value: Bool?

    public init(
        timeMicros: Int64, kind: Kind, subscription: String? = nil, publication: String? = nil,
        message: Message? = nil, value: Bool? = nil
    ) {
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
        if !ia.utf8.elementsEqual(ib.utf8) { return ia.utf8.lexicographicallyPrecedes(ib.utf8) }
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
    /// subscription expires at once (`onExpired`, ENGINE-F7).
    case stopNearby
    /// The user answers the consent dialog that is showing: granted or denied (ENGINE-D3).
    case answerPermission(granted: Bool)
    /// The system terminates the app: everything is released without a callback (ENGINE-L1).
    case terminate
    /// The app is launched again, with nothing published or subscribed (ENGINE-L2).
    case launch
}

/// An input the engine cannot accept (ENGINE-V1). The engine is unchanged when it
/// throws.
public struct EngineInputError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of input was refused; the code space is open, as DecodeError's.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        /// An input earlier than the engine's time (ENGINE-O1).
        public static let timeOrder = Code(rawValue: "time-order")
        /// A publish or subscribe with the id of an object that has not ended (ENGINE-L3).
        public static let idInUse = Code(rawValue: "id-in-use")
        /// An unsubscribe or unpublish of an id that names nothing the app holds.
        public static let unknownID = Code(rawValue: "unknown-id")
        /// An app action while the app is terminated, or a terminate while it is (ENGINE-L1).
        public static let notRunning = Code(rawValue: "not-running")
        /// A launch while the app runs (ENGINE-L2).
        public static let alreadyRunning = Code(rawValue: "already-running")
        /// An answer while no consent dialog is showing (ENGINE-D3).
        public static let noDialog = Code(rawValue: "no-dialog")
        /// Parameters outside the API's limits (type length, content size, TTL).
        public static let invalidParameters = Code(rawValue: "invalid-parameters")
        public var description: String { rawValue }
    }

    public var code: Code
    public var reason: String
    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }
    public var description: String { reason }
}
