/// Messages interned once, and the filters that match them (ENGINE-R1 to ENGINE-R4).
extension SubscriptionEngine {
    // MARK: messages and filters (ENGINE-R1 to ENGINE-R4)

    /// The engine index of message `m`, added (with its filters) when new. Equal messages,
    /// byte for byte, share one index (ENGINE-R4).
    mutating func intern(_ m: Message) -> Int32 {
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

    mutating func filterID(_ key: FilterKey) -> Int32 {
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
    func hasSubscribers(_ a: Int32?, _ b: Int32?) -> Bool {
        if let a, !subscribersByFilter[Int(a)].isEmpty { return true }
        if let b, !subscribersByFilter[Int(b)].isEmpty { return true }
        return false
    }

    /// The reserved message of a beacon ID (ENGINE-R2), one with a registry message equal to it (ENGINE-R4).
    mutating func reservedMessage(_ identity: SightingIdentity, type: String) -> Int32 {
        if let m = reservedMessages[identity] { return m }
        let m = intern(Message(namespace: Message.reservedNamespace, type: type, content: identity.bytes))
        reservedMessages.insert(identity, m)
        return m
    }
}
