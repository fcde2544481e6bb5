/// One-shot conveniences over the inputs, and the rules an input must meet (ENGINE-V1, ENGINE-L1 to ENGINE-L3,
/// ENGINE-D3).
extension SubscriptionEngine {
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

    // MARK: input rules (ENGINE-V1, ENGINE-L1 to ENGINE-L3, ENGINE-D3)

    /// Refuses an action the rules do not allow at `time`, after the timers due then (ENGINE-O2: an
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
                throw Self.idInUse("subscription", id)
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
                throw Self.idInUse("publication", id)
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

    /// ENGINE-L3: an id names one subscription (or publication) until it ends.
    static func idInUse(_ what: String, _ id: String) -> EngineInputError {
        EngineInputError(
            .idInUse,
            "\(what) id \"\(id)\" is in use: an id names one \(what) until it ends (released, expired or terminated)")
    }
}
